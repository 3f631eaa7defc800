/**
 * The words and codes of the order life's refusals (server/modules/order-life/order-life.shared.ts
 * decides when each is said): a 409's message, and the code a client may branch on.
 */
/** The codes of the table's refusals (the API's 409 carries one beside its message). */
export const LIFE_REFUSAL_CODES = [
  "NOT_PENDING",
  "HANDED_TO_COURIER",
  "TOO_LATE",
  "PAID_IN_ADVANCE",
  "PAID_ON_DELIVERY",
  "CONFIRMATION_CLOSED",
  "CANCELLED",
  "HAS_RETURNS",
  "BOOKING_UNDER_WAY",
  "NOT_AWAITING_ANSWER",
  "PAYMENT_SENT",
  "PAYMENT_VERIFIED",
  "NOTHING_TO_REJECT",
  "NOT_CONFIRMED",
  "PAYMENT_NOT_VERIFIED",
  "ALREADY_BOOKED",
  "NO_BOOKING_UNDER_WAY",
  "NO_BOOKING",
  "NOT_SHIPPED",
  "NOT_RETURNED",
  "RECEIVED_ALREADY",
  "NOT_CANCELLED",
  "REFUNDED",
  "NO_REFUND",
  "COURIER_REFUSED",
] as const;
export type LifeRefusalCode = (typeof LIFE_REFUSAL_CODES)[number];

/** Why an event is refused: the 409's words, and the code a client may branch on. */
export type LifeRefusal = { message: string; code: LifeRefusalCode };

export const HANDED_TO_COURIER =
  "This order was already handed to the courier: contact us to cancel it, and we stop the parcel";
export const CONFIRMATION_CLOSED = "This order can no longer be confirmed or cancelled here";
export const BOOKING_UNDER_WAY =
  "A courier booking is under way for this order: wait for its answer (or try the booking again), then cancel it";
export const REFUND_PAID_REOPEN = "This order's payment was refunded: place a new order instead of restoring it";
