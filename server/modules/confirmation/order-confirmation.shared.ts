import type {
  ConfirmationChannel,
  ConfirmationStatus,
  Confirmer,
  MessageLanguage,
  PaymentStatus,
} from "../orders/order-values.shared";

/**
 * An order's confirmation by its customer (docs/product.md, "Confirming an order"): plain data,
 * usable by the pages' browser bundle too.
 */
/** The texts the store sends about an order, and how they travel (`file`: written under DATA_DIR, no channel configured). */
export const CONFIRMATION_TEXT_KINDS = ["confirmation", "reminder", "cancellation"] as const;
export type ConfirmationTextKind = (typeof CONFIRMATION_TEXT_KINDS)[number];
/**
 * The texts of an order paid in advance (docs/product.md, "Paying in advance"): placed (what to
 * pay, where, by when), its payment verified or rejected, and cancelled unpaid.
 */
export const PAYMENT_TEXT_KINDS = ["payment-awaited", "payment-verified", "payment-rejected", "not-paid"] as const;
export type PaymentTextKind = (typeof PAYMENT_TEXT_KINDS)[number];
/** The texts of a parcel on its way: the courier tried to deliver it and could not (its reason). */
export const PARCEL_TEXT_KINDS = ["delivery-attempt"] as const;
export type ParcelTextKind = (typeof PARCEL_TEXT_KINDS)[number];
export const ORDER_MESSAGE_KINDS = [...CONFIRMATION_TEXT_KINDS, ...PAYMENT_TEXT_KINDS, ...PARCEL_TEXT_KINDS] as const;
export type OrderMessageKind = (typeof ORDER_MESSAGE_KINDS)[number];

/**
 * The order's state a queued text still needs when its turn to be sent comes: the confirmation
 * and its reminder ask an answer only a Pending order waiting for it can give; an attempt's text
 * says the courier will try again, true only while the order is Shipped. The others (the
 * cancellation, a payment's texts) tell of a change that happened, so they always go.
 */
export function isTextStillDue(
  kind: OrderMessageKind,
  order: { status: string; confirmationStatus: ConfirmationStatus },
): boolean {
  if (kind === "confirmation" || kind === "reminder") {
    return order.status === "Pending" && order.confirmationStatus === "pending";
  }
  if (kind === "delivery-attempt") return order.status === "Shipped";
  return true;
}

/** Whether a text is about a transfer's payment (sent whatever the order's confirmation). */
export function isPaymentTextKind(kind: OrderMessageKind): kind is PaymentTextKind {
  return (PAYMENT_TEXT_KINDS as readonly string[]).includes(kind);
}
export const TEXT_CHANNELS = ["whatsapp", "sms", "file"] as const;
export type TextChannel = (typeof TEXT_CHANNELS)[number];
/** A text's progress as its provider reports it; it only moves forward (queued < sent < delivered < read), or fails. */
export const ORDER_MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed"] as const;
export type OrderMessageStatus = (typeof ORDER_MESSAGE_STATUSES)[number];

/**
 * Only a cash-on-delivery order is confirmed by its customer's answer or a call; an order paid in
 * advance is confirmed by its payment, verified by the store (docs/decisions/2026-11-26-advance-payment.md),
 * so it never waits for an answer nor is sent the confirmation text. The admin list's filters read
 * the same payment status in SQL.
 */
export const CONFIRMED_BY_ANSWER: PaymentStatus = "on-delivery";
export const CONFIRMED_BY_PAYMENT: PaymentStatus = "verified";

export function isConfirmedByAnswer(order: { paymentStatus: PaymentStatus }): boolean {
  return order.paymentStatus === CONFIRMED_BY_ANSWER;
}

/** Confirmed enough to ship without asking again: by phone or the customer's answer, or by a verified payment. */
export function isConfirmed(order: { confirmedAt: Date | string | null; paymentStatus: PaymentStatus }): boolean {
  return Boolean(order.confirmedAt) || order.paymentStatus === CONFIRMED_BY_PAYMENT;
}

/** The reason on an order the store cancelled because nobody answered its confirmation. */
export const NOT_CONFIRMED_REASON = "Not confirmed";

/** The confirmation as the API and the pages show it. */
export type OrderConfirmation = {
  status: ConfirmationStatus;
  by: Confirmer | null;
  channel: ConfirmationChannel | null;
  at: string | null;
};

/**
 * Cancelling from the confirmation (link, button or SMS reply) is allowed while the order is
 * Pending and not yet booked with a courier (a booking sets its courier or tracking number);
 * the 2-hour rule stays for the cancel on /my-orders (docs/product.md, "Confirming an order").
 */
export function isAnswerable(order: {
  status: string;
  courier: string | null;
  trackingNumber: string | null;
}): boolean {
  return order.status === "Pending" && !order.courier && !order.trackingNumber;
}

/**
 * The admin order list's filter by confirmation: Pending orders waiting for their answer,
 * confirmed ones, those the customer cancelled from the confirmation, and those the store
 * cancelled because nobody answered.
 */
export const DESK_CONFIRMATION_FILTERS = {
  pending: "Waiting for the customer's answer",
  confirmed: "Confirmed",
  cancelled: "Cancelled by the customer",
  "not-answered": "Not answered (cancelled)",
} as const;
export type DeskConfirmationFilter = keyof typeof DESK_CONFIRMATION_FILTERS;

/** "Send again": at most this many confirmation texts per order, the first included. */
export const CONFIRMATION_TEXTS_MAX = 4;
export const SENT_TOO_OFTEN = "This order's confirmation was already sent 4 times";

/** An order's text as the admin's order page shows it. */
export type OrderTextRecord = {
  id: string;
  channel: TextChannel;
  kind: OrderMessageKind;
  language: MessageLanguage;
  status: OrderMessageStatus;
  attempts: number;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
};

/** A customer's reply as the admin's order page shows it. */
export type OrderReplyRecord = {
  id: string;
  channel: "whatsapp" | "sms";
  body: string;
  action: "confirmed" | "cancelled" | "none";
  receivedAt: string;
};
