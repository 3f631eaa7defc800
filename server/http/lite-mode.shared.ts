/**
 * Lite mode: pages without any executable script, for slow phones and costly data. A shopper
 * turns it on or off with the footer's link (app/content/lite-mode.ts), kept in this cookie.
 */
export const LITE_COOKIE = "waqt.lite";
export const LITE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
