import {
  CANCEL_NOT_PENDING,
  CANCEL_TOO_LATE,
  CANCEL_WINDOW_MS,
  RECEIVED_BACK_ALREADY,
  RECEIVED_BACK_NOT_RETURNED,
  RETURN_TO_SENDER_NOT_SHIPPED,
  SHIP_UNPAID_REFUSED,
  type ConfirmationStatus,
  type OrderStatus,
  type PaymentStatus,
} from "../orders/order-values.shared";
import {
  BOOKING_UNDER_WAY,
  CONFIRMATION_CLOSED,
  HANDED_TO_COURIER,
  REFUND_PAID_REOPEN,
  type LifeRefusal,
  type LifeRefusalCode,
} from "./order-life-refusals.shared";

/**
 * An order's life written once (docs/product.md, "An order's life"): its status, its payment, its
 * confirmation and its parcel, read together under the order's row lock, and for every event the
 * states that allow it, what it changes and what must follow. Every flow asks `decide`; the pages,
 * mails, slips and the API read `offers` and the amounts of ./order-life-view.shared.ts; the
 * refusals' words and codes are in ./order-life-refusals.shared.ts. Plain data and functions: the
 * pages' bundle reads them too.
 *
 * The invariants it keeps (checked after every event of random runs by server/modules/order-life/order-life.test.ts):
 * - a paid order (an advance payment in progress or verified) is never cancelled by the confirmation
 *   rules, and those rules act only on cash-on-delivery orders whose request really left the store
 *   by WhatsApp or SMS;
 * - an order is Cancelled only when no live consignment remains: the customer's cancel of a booked
 *   order is refused, the admin's cancel cancels the consignment first;
 * - stock and a discount code's use go back exactly once, whatever the path (the `stock-back` and
 *   `stock-claim` effects come only with a move into and out of Cancelled);
 * - a cancelled order whose money the store holds has a refund to make (`refund-due`); one whose
 *   refund was paid is not made live again.
 */

/** The four lives of an order, as the table reads them. */
export type LifeState = {
  status: OrderStatus;
  /** `on-delivery`, or an advance payment's `awaiting` → `submitted` → `verified` / `rejected`. */
  payment: PaymentStatus;
  /** Paid before it ships (bank transfer, JazzCash, Safepay): confirmed by its payment, not by an answer. */
  advance: boolean;
  confirmation: ConfirmationStatus;
  /**
   * The cash-on-delivery confirmation request: `texted` once it really left the store by WhatsApp or
   * SMS; `unsent` while it is only a file under DATA_DIR, queued or failed; `limited` when the
   * phone's text limit kept it back; `none` without a phone (or for an order paid in advance).
   */
  request: "texted" | "unsent" | "limited" | "none";
  /** The parcel with a courier's API: `booking` while a call is under way or in doubt, `booked` once live. */
  parcel: "none" | "booking" | "booked";
  /** A Shipped parcel the courier brought back: `returned`, then `received-back` once on the shelf again. */
  outcome: "none" | "returned" | "received-back";
  /** A return the customer asked for that was not rejected (a delivered order then stays Delivered). */
  returns: boolean;
  /** The money a cancelled paid order owes its customer: `due`, then `paid` once the admin records it. */
  refund: "none" | "due" | "paid";
  placedAt: Date;
};

/** Who cancels an order, each by its own rules below. */
export type Canceller =
  /** The customer on My Orders or the API (`POST /orders/{id}/cancel`): within 2 hours. */
  | "customer"
  /** The customer's answer to the confirmation: the link's page, a button or a reply. */
  | "customer-answer"
  | "admin"
  /** Nobody answered the confirmation in time ("Not confirmed"). */
  | "sweep"
  /** An advance payment not made in time ("Not paid"). */
  | "unpaid";

/** Every event of an order's life after it was placed (docs/product.md, "An order's life"). */
export type LifeEvent =
  | { kind: "reference-sent" }
  | { kind: "payment-verified"; by: "admin" | "gateway" }
  | { kind: "payment-rejected" }
  | { kind: "confirmed"; by: "customer" | "admin" }
  /** An admin's confirmation by phone undone (made by mistake): the order waits for its answer again. */
  | { kind: "confirmation-undone" }
  /** An admin asks a courier's API to book the parcel: the call is under way (or in doubt) until it answers. */
  | { kind: "booking-requested" }
  /** The courier booked it: a live consignment. */
  | { kind: "booked" }
  /** The courier refused the booking: the order may be booked again. */
  | { kind: "booking-refused" }
  /** An admin cancels the booking before pickup, through the courier's API first. */
  | { kind: "booking-cancelled" }
  | { kind: "picked-up" }
  | { kind: "shipped" }
  | { kind: "delivered" }
  | { kind: "back-to-pending" }
  | { kind: "returned" }
  | { kind: "received-back" }
  | { kind: "cancelled"; by: Canceller }
  /** An admin takes a cancelled order back to Pending (a status beyond it is a second event). */
  | { kind: "reopened" }
  | { kind: "refund-paid" };
export type LifeEventKind = LifeEvent["kind"];

/**
 * What an event does beyond the state it sets; the flow that runs the event performs each, in the
 * order's transaction (the courier's cancel first, before anything changes: if the courier
 * refuses, nothing does).
 */
export type LifeEffect =
  /** Cancel the live consignment through the courier's API before the order changes. */
  | "cancel-consignment"
  /** The order's units back on the shelf (and their waiting stock alerts mailed). */
  | "stock-back"
  /** The order's units, and its discount code's use, claimed again (refused when gone). */
  | "stock-claim"
  /** The code's use only: a parcel returned to sender never gave its units back. */
  | "discount-claim"
  /** The store holds the customer's money for an order now cancelled: a refund to make. */
  | "refund-due"
  /** A refund still to make is no longer owed (the order is live again). */
  | "refund-dropped";

export type LifeDecision =
  | { allowed: true; changed: false }
  | { allowed: true; changed: true; next: LifeState; effects: LifeEffect[] }
  | { allowed: false; refusal: LifeRefusal };

/** A guard: the states it lets through, and the refusal for the others. */
type Guard = { holds: (state: LifeState, now: Date) => boolean; refusal: LifeRefusal };

/** A row of the table: its guards in order (the first that fails answers), the changes, and what follows. */
type Transition = {
  /** States in which the event changes nothing and is not an error (a second confirmation). */
  unchangedWhen?: (state: LifeState) => boolean;
  when: Guard[];
  to: (state: LifeState) => Partial<LifeState>;
  effects?: (state: LifeState) => LifeEffect[];
};

const refuse = (code: LifeRefusalCode, message: string): LifeRefusal => ({ code, message });
const guard = (holds: Guard["holds"], code: LifeRefusalCode, message: string): Guard => ({
  holds,
  refusal: refuse(code, message),
});

// The guards, each named by what it lets through.
const pending = (message: string, code: LifeRefusalCode = "NOT_PENDING") =>
  guard((s) => s.status === "Pending", code, message);
const notCancelled = (message: string) => guard((s) => s.status !== "Cancelled", "CANCELLED", message);
const paidInAdvance = guard(
  (s) => s.advance,
  "PAID_ON_DELIVERY",
  "This order is paid on delivery: it has no transfer to report or verify",
);
const paidOnDelivery = (message: string) => guard((s) => !s.advance, "PAID_IN_ADVANCE", message);
const paymentNotVerified = guard(
  (s) => s.payment !== "verified",
  "PAYMENT_VERIFIED",
  "This order's payment is verified already",
);
const noParcel = (message: string, code: LifeRefusalCode = "HANDED_TO_COURIER") =>
  guard((s) => s.parcel === "none", code, message);
const paidIfAdvance = guard((s) => !s.advance || s.payment === "verified", "PAYMENT_NOT_VERIFIED", SHIP_UNPAID_REFUSED);
const noOpenReturns = guard(
  (s) => !(s.status === "Delivered" && s.returns),
  "HAS_RETURNS",
  "This order has a return, so it stays Delivered",
);

/** The store holds the customer's money: a verified advance payment, or the cash of a delivered parcel. */
export function holdsPayment(state: Pick<LifeState, "advance" | "payment" | "status">): boolean {
  return state.advance ? state.payment === "verified" : state.status === "Delivered";
}

/** Confirmed enough to book and ship without asking: by an answer or a call, or by a verified payment. */
export function isConfirmedForShipping(state: Pick<LifeState, "advance" | "payment" | "confirmation">): boolean {
  return state.advance ? state.payment === "verified" : state.confirmation === "confirmed";
}

/**
 * Waiting for the customer's answer to a confirmation request that really reached them: the only
 * orders a written reply or the deadlines' sweep may act on.
 */
export function awaitsAnswer(state: LifeState): boolean {
  return (
    !state.advance &&
    state.status === "Pending" &&
    state.confirmation === "pending" &&
    state.parcel === "none" &&
    state.request === "texted"
  );
}

/** The cancellation's effects: the units back, and a refund when the store holds the customer's money. */
const cancelEffects =
  (extra: LifeEffect[] = []) =>
  (s: LifeState): LifeEffect[] => [
    ...extra,
    "stock-back",
    ...(holdsPayment(s) && s.refund === "none" ? (["refund-due"] as const) : []),
  ];

const CANCELLATIONS: Record<Canceller, Transition> = {
  customer: {
    when: [
      pending(CANCEL_NOT_PENDING),
      // A parcel booked (or being booked) is the courier's: only the store can stop it.
      noParcel(HANDED_TO_COURIER),
      guard((s, now) => now.getTime() - s.placedAt.getTime() < CANCEL_WINDOW_MS, "TOO_LATE", CANCEL_TOO_LATE),
    ],
    to: () => ({ status: "Cancelled" }),
    effects: cancelEffects(),
  },
  "customer-answer": {
    when: [
      paidOnDelivery("An order paid in advance is confirmed by its payment, not by an answer"),
      pending(CONFIRMATION_CLOSED, "CONFIRMATION_CLOSED"),
      noParcel(CONFIRMATION_CLOSED, "CONFIRMATION_CLOSED"),
    ],
    to: () => ({ status: "Cancelled", confirmation: "cancelled" }),
    effects: cancelEffects(),
  },
  admin: {
    when: [
      notCancelled("This order is cancelled already"),
      noOpenReturns,
      guard((s) => s.parcel !== "booking", "BOOKING_UNDER_WAY", BOOKING_UNDER_WAY),
    ],
    to: () => ({ status: "Cancelled" }),
    effects: (s) => cancelEffects(s.parcel === "booked" ? ["cancel-consignment"] : [])(s),
  },
  sweep: {
    when: [guard(awaitsAnswer, "NOT_AWAITING_ANSWER", "This order is not waiting for its confirmation")],
    to: () => ({ status: "Cancelled" }),
    effects: cancelEffects(),
  },
  unpaid: {
    when: [
      paidInAdvance,
      pending(CANCEL_NOT_PENDING),
      guard(
        (s) => s.payment === "awaiting" || s.payment === "rejected",
        "PAYMENT_SENT",
        "This order's payment was sent",
      ),
      noParcel(HANDED_TO_COURIER),
    ],
    to: () => ({ status: "Cancelled" }),
    effects: cancelEffects(),
  },
};

/** The table: every event, the states that allow it, and what it changes. */
export const ORDER_LIFE: Record<Exclude<LifeEventKind, "cancelled" | "payment-verified" | "confirmed">, Transition> & {
  cancelled: Record<Canceller, Transition>;
  "payment-verified": Record<"admin" | "gateway", Transition>;
  confirmed: Record<"customer" | "admin", Transition>;
} = {
  "reference-sent": {
    when: [paidInAdvance, notCancelled("This order is cancelled"), paymentNotVerified],
    to: () => ({ payment: "submitted" }),
  },
  "payment-verified": {
    admin: {
      when: [paidInAdvance, notCancelled("This order is cancelled"), paymentNotVerified],
      to: () => ({ payment: "verified" }),
    },
    // The gateway's word is the money itself: it is recorded even on an order cancelled meanwhile,
    // which then owes the customer a refund.
    gateway: {
      unchangedWhen: (s) => s.payment === "verified",
      when: [paidInAdvance],
      to: () => ({ payment: "verified" }),
      effects: (s) => (s.status === "Cancelled" && s.refund === "none" ? ["refund-due"] : []),
    },
  },
  "payment-rejected": {
    when: [
      paidInAdvance,
      notCancelled("This order is cancelled"),
      paymentNotVerified,
      guard(
        (s) => s.payment === "submitted",
        "NOTHING_TO_REJECT",
        "Only a payment whose reference the customer sent can be rejected",
      ),
    ],
    to: () => ({ payment: "rejected" }),
  },
  confirmed: {
    customer: {
      unchangedWhen: (s) => s.confirmation === "confirmed" && s.status !== "Cancelled",
      when: [
        paidOnDelivery("An order paid in advance is confirmed by its payment, not by an answer"),
        pending(CONFIRMATION_CLOSED, "CONFIRMATION_CLOSED"),
        noParcel(CONFIRMATION_CLOSED, "CONFIRMATION_CLOSED"),
      ],
      to: () => ({ confirmation: "confirmed" }),
    },
    admin: {
      when: [
        pending("Only pending orders can be confirmed"),
        paidOnDelivery("An order paid in advance is confirmed by its verified payment, not by phone"),
      ],
      unchangedWhen: (s) => s.status === "Pending" && s.confirmation === "confirmed",
      to: () => ({ confirmation: "confirmed" }),
    },
  },
  "confirmation-undone": {
    unchangedWhen: (s) => s.status === "Pending" && s.confirmation === "pending",
    when: [
      pending("A confirmation can be undone only while the order is pending"),
      paidOnDelivery("An order paid in advance is confirmed by its verified payment"),
      noParcel("Cancel the order's courier booking before undoing its confirmation", "ALREADY_BOOKED"),
    ],
    to: () => ({ confirmation: "pending" }),
  },
  "booking-requested": {
    when: [
      pending("Only a pending order can be booked with a courier"),
      guard(
        (s) => s.advance || s.confirmation === "confirmed",
        "NOT_CONFIRMED",
        "Confirm the order with the customer before booking a courier",
      ),
      guard(
        (s) => !s.advance || s.payment === "verified",
        "PAYMENT_NOT_VERIFIED",
        "Verify the order's payment before booking a courier",
      ),
      noParcel("This order is booked with a courier already", "ALREADY_BOOKED"),
    ],
    to: () => ({ parcel: "booking" }),
  },
  booked: {
    when: [guard((s) => s.parcel === "booking", "NO_BOOKING_UNDER_WAY", "No booking is under way for this order")],
    to: () => ({ parcel: "booked" }),
  },
  "booking-refused": {
    when: [guard((s) => s.parcel === "booking", "NO_BOOKING_UNDER_WAY", "No booking is under way for this order")],
    to: () => ({ parcel: "none" }),
  },
  "booking-cancelled": {
    when: [
      guard((s) => s.parcel === "booked", "NO_BOOKING", "This order has no booking to cancel"),
      pending("A booking can be cancelled only before pickup"),
    ],
    to: () => ({ parcel: "none" }),
    effects: () => ["cancel-consignment"],
  },
  // The courier has the parcel: the order is Shipped (an unverified advance payment stays, logged).
  "picked-up": {
    when: [pending("Only a pending order can be picked up"), paidIfAdvance],
    to: () => ({ status: "Shipped" }),
  },
  shipped: {
    unchangedWhen: (s) => s.status === "Shipped",
    when: [notCancelled("Restore the order before shipping it"), noOpenReturns, paidIfAdvance],
    to: () => ({ status: "Shipped" }),
  },
  delivered: {
    unchangedWhen: (s) => s.status === "Delivered",
    when: [notCancelled("Restore the order before marking it delivered"), paidIfAdvance],
    to: () => ({ status: "Delivered" }),
  },
  "back-to-pending": {
    unchangedWhen: (s) => s.status === "Pending",
    when: [notCancelled("Restore the order instead"), noOpenReturns],
    to: () => ({ status: "Pending" }),
  },
  returned: {
    when: [guard((s) => s.status === "Shipped", "NOT_SHIPPED", RETURN_TO_SENDER_NOT_SHIPPED)],
    to: () => ({ status: "Cancelled", outcome: "returned" }),
    // Its units stay out until the parcel is received back; a prepaid parcel's money is owed back.
    effects: (s) => (holdsPayment(s) && s.refund === "none" ? ["refund-due"] : []),
  },
  "received-back": {
    when: [
      guard((s) => s.status === "Cancelled" && s.outcome !== "none", "NOT_RETURNED", RECEIVED_BACK_NOT_RETURNED),
      guard((s) => s.outcome === "returned", "RECEIVED_ALREADY", RECEIVED_BACK_ALREADY),
    ],
    to: () => ({ outcome: "received-back" }),
    effects: () => ["stock-back"],
  },
  cancelled: CANCELLATIONS,
  reopened: {
    when: [
      guard((s) => s.status === "Cancelled", "NOT_CANCELLED", "Only a cancelled order can be restored"),
      guard((s) => s.refund !== "paid", "REFUNDED", REFUND_PAID_REOPEN),
    ],
    to: () => ({ status: "Pending", outcome: "none", refund: "none" }),
    effects: (s) => [
      s.outcome === "returned" ? "discount-claim" : "stock-claim",
      ...(s.refund === "due" ? (["refund-dropped"] as const) : []),
    ],
  },
  "refund-paid": {
    when: [guard((s) => s.refund === "due", "NO_REFUND", "This order has no refund to make")],
    to: () => ({ refund: "paid" }),
  },
};

/** The row of the table an event reads. */
function transitionOf(event: LifeEvent): Transition {
  switch (event.kind) {
    case "cancelled":
      return ORDER_LIFE.cancelled[event.by];
    case "payment-verified":
      return ORDER_LIFE["payment-verified"][event.by];
    case "confirmed":
      return ORDER_LIFE.confirmed[event.by];
    default:
      return ORDER_LIFE[event.kind];
  }
}

/**
 * What an event does to an order in this state, at `now`: refused with the first guard's words,
 * allowed without a change (the same answer twice), or the next state and the effects to perform.
 */
export function decide(state: LifeState, event: LifeEvent, now: Date): LifeDecision {
  const transition = transitionOf(event);
  if (transition.unchangedWhen?.(state)) return { allowed: true, changed: false };
  for (const { holds, refusal } of transition.when) {
    if (!holds(state, now)) return { allowed: false, refusal };
  }
  const changes = transition.to(state);
  // A move into Cancelled, or out of it, always carries the stock's way (RULINGS: exactly once).
  const next: LifeState = { ...state, ...changes };
  const effects = transition.effects?.(state) ?? [];
  if (effects.includes("refund-due")) next.refund = "due";
  if (effects.includes("refund-dropped")) next.refund = "none";
  // A cancellation also drops a live consignment: the effect cancels it before anything changes.
  if (next.status === "Cancelled" && state.status !== "Cancelled") next.parcel = "none";
  return { allowed: true, changed: true, next, effects };
}

/** Whether the event would be taken now (the pages' and the API's offers). */
export function allows(state: LifeState, event: LifeEvent, now: Date): boolean {
  return decide(state, event, now).allowed;
}

/** The refusal of an event, or null when it is allowed. */
export function refusalOf(state: LifeState, event: LifeEvent, now: Date): LifeRefusal | null {
  const decision = decide(state, event, now);
  return decision.allowed ? null : decision.refusal;
}

/**
 * The invariants, as predicates over one order's state; each holds after every event of the
 * table (the model test, order-life.test.ts beside it, checks them after every event).
 */
export const LIFE_INVARIANTS: { name: string; holds: (state: LifeState) => boolean }[] = [
  {
    name: "no Cancelled order has a live consignment",
    holds: (s) => s.status !== "Cancelled" || s.parcel === "none",
  },
  {
    name: "a cancelled order whose advance payment was verified owes a refund",
    holds: (s) => s.status !== "Cancelled" || !s.advance || s.payment !== "verified" || s.refund !== "none",
  },
  {
    name: "an order paid in advance is never confirmed or cancelled by an answer",
    holds: (s) => !s.advance || s.confirmation === "pending",
  },
  {
    name: "only a Cancelled order has an outcome or a refund",
    holds: (s) => s.status === "Cancelled" || (s.outcome === "none" && s.refund === "none"),
  },
];
