/** The order's fixed values: plain data, usable by the pages' browser bundle too. */
export const ORDER_STATUSES = ["Pending", "Shipped", "Delivered", "Cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * What became of a shipped parcel besides delivery (docs/product.md, "Returned to sender"): the
 * courier brought it back. The reasons an admin picks from, as the pages and the API write them.
 */
export const OUTCOME_KINDS = ["returned"] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];
export const RETURN_TO_SENDER_REASONS = [
  "Refused at the door",
  "Customer not reachable",
  "Wrong address",
  "Other",
] as const;
export type ReturnToSenderReason = (typeof RETURN_TO_SENDER_REASONS)[number];

/** Orders are shown by the last 8 characters of their id (docs/product.md, "Orders"). */
export function shortOrderId(id: string): string {
  return id.slice(-8).toUpperCase();
}

/**
 * The admin order list's status filter: the four statuses, and the Pending orders not yet
 * confirmed by phone (docs/product.md, "Confirming an order by phone"), which are the ones to
 * call before anything ships.
 */
export const UNCONFIRMED_FILTER = "Unconfirmed";
export const DESK_STATUS_FILTERS = [...ORDER_STATUSES, UNCONFIRMED_FILTER] as const;
export type DeskStatusFilter = (typeof DESK_STATUS_FILTERS)[number];

/** Orders are listed, searched and exported by their date in Pakistan. */
export { STORE_TIME_ZONE } from "../shared/store-dates.shared";

/** Search terms of the admin order list: at most this long. */
export const ORDER_SEARCH_MAX = 100;

/**
 * A customer may cancel their own order while it is Pending and younger than this (docs/product.md,
 * "Cancelling an order"); at exactly 2 hours it is too late.
 */
export const CANCEL_WINDOW_HOURS = 2;
export const CANCEL_WINDOW_MS = CANCEL_WINDOW_HOURS * 60 * 60 * 1000;
export const CANCEL_TOO_LATE = "Orders can only be cancelled within 2 hours of ordering";
export const CANCEL_NOT_PENDING = "Only pending orders can be cancelled";

/** Whether the customer may still cancel this order at `now`. */
export function isCancellableByCustomer(order: { status: string; createdAt: string | Date }, now: Date): boolean {
  return order.status === "Pending" && now.getTime() - new Date(order.createdAt).getTime() < CANCEL_WINDOW_MS;
}

/**
 * An order's payment (docs/product.md, "Paying in advance"): `on-delivery` for cash on delivery;
 * a bank transfer is `awaiting` the customer's transfer, `submitted` with its reference, then
 * `verified` or `rejected` by an admin (the customer may then send a reference again).
 */
export const PAYMENT_STATUSES = ["on-delivery", "awaiting", "submitted", "verified", "rejected"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** How the pages name a payment's status. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  "on-delivery": "Paid on delivery",
  awaiting: "Awaiting your transfer",
  submitted: "Reference received, being checked",
  verified: "Payment verified",
  rejected: "Payment not found",
};

/** A transaction reference as banks and Raast print it: letters, digits, dashes, slashes and spaces. */
export const PAYMENT_REFERENCE_MAX = 60;
export const PAYMENT_REJECT_REASON_MAX = 300;
/** The order page's and the API's multipart field for the optional screenshot of the transfer. */
export const SCREENSHOT_FIELD = "screenshot";
/** Where the screenshot is served, to the order's owner and admins only (app/orders/payment-screenshot.ts). */
export const paymentScreenshotUrl = (orderId: string, size: "full" | "thumbnail" = "full") =>
  `/orders/${encodeURIComponent(orderId)}/payment-screenshot${size === "thumbnail" ? "?size=thumbnail" : ""}`;

/** Why an unpaid transfer order was cancelled (its cancelReason). */
export const NOT_PAID_REASON = "Not paid";

/** Shipping a bank-transfer order before its payment is verified: the 409's words (RULINGS, fifth wave). */
export const SHIP_UNPAID_REFUSED =
  "This order is paid by bank transfer and its payment is not verified yet: verify the payment before shipping it";

/**
 * An order's confirmation by its customer (docs/product.md, "Confirming an order"): the values of
 * its columns on the order (the confirmation module keeps the texts and replies).
 */
export const CONFIRMATION_STATUSES = ["pending", "confirmed", "cancelled"] as const;
export type ConfirmationStatus = (typeof CONFIRMATION_STATUSES)[number];

export const CONFIRMERS = ["customer", "admin"] as const;
export type Confirmer = (typeof CONFIRMERS)[number];

/** How the answer came: a WhatsApp button, an SMS reply, the link's page, or the admin's call. */
export const CONFIRMATION_CHANNELS = ["whatsapp", "sms", "link", "phone"] as const;
export type ConfirmationChannel = (typeof CONFIRMATION_CHANNELS)[number];

/** The languages of an order's messages and of its confirmation page. */
export const MESSAGE_LANGUAGES = ["ur", "en"] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** Without a choice, Urdu for a Pakistani mobile number (every number the store keeps is one), English without a number. */
export function defaultMessageLanguage(phone: string | null | undefined): MessageLanguage {
  return phone ? "ur" : "en";
}
