/**
 * Where the services read the time. Production reads the system clock; tests hand in one they
 * move (a return window of 7 days, a discount code's dates), so that no test waits.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
