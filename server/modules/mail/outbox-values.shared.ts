/** The states of a message in the outbox (docs/product.md, "Mail"); plain data for the admin page. */
export const OUTBOX_STATES = ["queued", "sent", "failed"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** What a mail is about: one of the store's messages (docs/product.md, "Mail"). */
export const MAIL_KINDS = [
  "order-placed",
  "new-order",
  "order-shipped",
  "order-delivered",
  "order-cancelled",
  "order-cancelled-by-customer",
  "order-returned-to-sender",
  "order-delivery-attempt",
  "password-reset",
  "password-changed",
  "email-change-link",
  "email-changed",
  "back-in-stock",
  "return-requested",
  "return-approved",
  "return-rejected",
  "return-refunded",
  "review-published",
  "payment-submitted",
  "payment-verified",
  "payment-rejected",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The admin outbox lists this many messages a page. */
export const OUTBOX_PAGE_SIZE = 50;
