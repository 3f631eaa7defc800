import { decide, holdsPayment, isConfirmedForShipping, type LifeEvent, type LifeState } from "./order-life.shared";
import type { PaymentStatus } from "../orders/order-values.shared";

/**
 * The order's life as the pages, mails, slips and the API show it, read from the table
 * (./order-life.shared.ts): what is due, what the courier collects, and what may be done next.
 */
/** What the order offers now, for the pages' buttons and the API's `actions`. */
export type LifeOffers = {
  /** The customer may cancel it themselves (My Orders, the API). */
  cancel: boolean;
  /** An admin may record the confirmation by phone. */
  confirm: boolean;
  /** An admin may undo a confirmation by phone made by mistake. */
  undoConfirmation: boolean;
  /** An admin may book it with a courier's API. */
  book: boolean;
  /** An admin may mark it Shipped with a courier and tracking number. */
  ship: boolean;
  /** The confirmation's link still answers. */
  answer: boolean;
  /** The customer may send (or correct) a transfer's reference. */
  sendReference: boolean;
  /** An admin may verify or reject the advance payment. */
  reviewPayment: boolean;
  /** An admin may record the refund of a cancelled paid order. */
  recordRefund: boolean;
};

export function offers(state: LifeState, now: Date): LifeOffers {
  const can = (event: LifeEvent) => {
    const decision = decide(state, event, now);
    return decision.allowed && decision.changed;
  };
  return {
    cancel: can({ kind: "cancelled", by: "customer" }),
    confirm: can({ kind: "confirmed", by: "admin" }),
    undoConfirmation: can({ kind: "confirmation-undone" }),
    book: can({ kind: "booking-requested" }),
    ship: can({ kind: "shipped" }) && state.status === "Pending",
    answer: can({ kind: "cancelled", by: "customer-answer" }),
    sendReference: can({ kind: "reference-sent" }),
    reviewPayment: can({ kind: "payment-verified", by: "admin" }),
    recordRefund: can({ kind: "refund-paid" }),
  };
}

/**
 * What the customer still has to pay: nothing once the money is in the store's hands (a verified
 * payment, a delivered cash-on-delivery parcel) or the order is cancelled; else the total.
 */
export function amountDue(state: Pick<LifeState, "advance" | "payment" | "status">, totalPaisa: number): number {
  if (state.status === "Cancelled" || holdsPayment(state)) return 0;
  return totalPaisa;
}

/** What the courier collects at the door: the total of a cash-on-delivery order, nothing for one paid in advance. */
export function collectOnDelivery(state: Pick<LifeState, "advance" | "status">, totalPaisa: number): number {
  return state.advance || state.status === "Cancelled" ? 0 : totalPaisa;
}

/** The order's life as its pages and API answer show it: what is due and collected (rupees), and its offers. */
export function lifeView(
  state: LifeState,
  totalPrice: number,
  now: Date,
): { amountDue: number; collectOnDelivery: number; readyToShip: boolean; actions: LifeOffers } {
  const totalPaisa = Math.round(totalPrice * 100);
  return {
    amountDue: amountDue(state, totalPaisa) / 100,
    collectOnDelivery: collectOnDelivery(state, totalPaisa) / 100,
    readyToShip: isConfirmedForShipping(state),
    actions: offers(state, now),
  };
}

/** A new order's life, as checkout places it (nothing answered, paid, booked or sent yet). */
export function placedLife(order: { advance: boolean; payment: PaymentStatus; phone: string | null; placedAt: Date }) {
  const state: LifeState = {
    status: "Pending",
    payment: order.payment,
    advance: order.advance,
    confirmation: "pending",
    request: order.advance || !order.phone ? "none" : "unsent",
    parcel: "none",
    outcome: "none",
    returns: false,
    refund: "none",
    placedAt: order.placedAt,
  };
  return state;
}
