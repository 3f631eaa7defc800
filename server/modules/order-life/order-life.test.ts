/**
 * The order's life as a model (docs/product.md, "An order's life"): random runs of events, as any
 * mix of customers, admins, couriers, gateways, replies and sweeps could send them, from every kind
 * of new order. After every step the table's invariants hold, and what the effects do adds up:
 * the order's units leave the shelf once and come back at most once, a consignment is cancelled
 * only while one is live, a refund is owed only for money the store holds. A failing run prints
 * its seed and its shortest sequence of events (fast-check's shrinking).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  LIFE_INVARIANTS,
  awaitsAnswer,
  decide,
  holdsPayment,
  type Canceller,
  type LifeEvent,
  type LifeState,
} from "./order-life.shared";
import { placedLife } from "./order-life-view.shared";

const PLACED_AT = new Date("2026-12-01T09:00:00Z");
const CANCELLERS: Canceller[] = ["customer", "customer-answer", "admin", "sweep", "unpaid"];

/** What the world does to an order besides its events: the request's text leaves the store. */
type Step = { event: LifeEvent; minutesLater: number } | { textDelivered: true };

const eventArbitrary: fc.Arbitrary<LifeEvent> = fc.oneof(
  fc.constantFrom<LifeEvent>(
    { kind: "reference-sent" },
    { kind: "payment-verified", by: "admin" },
    { kind: "payment-verified", by: "gateway" },
    { kind: "payment-rejected" },
    { kind: "confirmed", by: "customer" },
    { kind: "confirmed", by: "admin" },
    { kind: "confirmation-undone" },
    { kind: "booking-requested" },
    { kind: "booked" },
    { kind: "booking-refused" },
    { kind: "booking-cancelled" },
    { kind: "picked-up" },
    { kind: "shipped" },
    { kind: "delivered" },
    { kind: "back-to-pending" },
    { kind: "returned" },
    { kind: "received-back" },
    { kind: "reopened" },
    { kind: "refund-paid" },
  ),
  fc.constantFrom(...CANCELLERS).map((by): LifeEvent => ({ kind: "cancelled", by })),
);

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ event: eventArbitrary, minutesLater: fc.integer({ min: 0, max: 240 }) }) },
  { weight: 1, arbitrary: fc.constant({ textDelivered: true as const }) },
);

const newOrderArbitrary = fc.record({
  advance: fc.boolean(),
  phone: fc.constantFrom(null, "+923001234567"),
  limited: fc.boolean(),
});

type Ledger = { unitsOut: number; consignmentsCancelled: number };

/** Runs the steps from a new order, checking every rule after each; answers the final state. */
function run(order: { advance: boolean; phone: string | null; limited: boolean }, steps: Step[]): LifeState {
  let state = placedLife({
    advance: order.advance,
    payment: order.advance ? "awaiting" : "on-delivery",
    phone: order.phone,
    placedAt: PLACED_AT,
  });
  if (state.request === "unsent" && order.limited) state = { ...state, request: "limited" };
  let now = PLACED_AT;
  // Checkout took the units once. (A discount code's use is counted from the orders that are not
  // Cancelled, so it follows the status by construction; its claim is checked where it is made.)
  const ledger: Ledger = { unitsOut: 1, consignmentsCancelled: 0 };
  for (const step of steps) {
    if ("textDelivered" in step) {
      if (state.request === "unsent") state = { ...state, request: "texted" };
      continue;
    }
    now = new Date(now.getTime() + step.minutesLater * 60_000);
    const before = state;
    const decision = decide(before, step.event, now);
    if (!decision.allowed || !decision.changed) continue;
    const by = step.event.kind === "cancelled" ? step.event.by : null;
    // The confirmation's rules never cancel an order whose payment is made or being made, nor
    // one whose request never reached the phone.
    if (by === "sweep" || by === "customer-answer") {
      expect(before.advance, "an order paid in advance cancelled by the confirmation's rules").toBe(false);
      if (by === "sweep") expect(awaitsAnswer(before), "an order swept that was not waiting").toBe(true);
    }
    if (by === "customer") expect(before.parcel, "the customer cancelled a booked parcel").toBe("none");
    for (const effect of decision.effects) {
      switch (effect) {
        case "cancel-consignment":
          expect(before.parcel, "a consignment cancelled with none live").not.toBe("none");
          ledger.consignmentsCancelled += 1;
          break;
        case "stock-back":
          ledger.unitsOut -= 1;
          break;
        case "stock-claim":
        case "discount-claim":
          expect(before.status, `${effect} for an order that was not cancelled`).toBe("Cancelled");
          expect(decision.next.status).not.toBe("Cancelled");
          if (effect === "stock-claim") ledger.unitsOut += 1;
          break;
        case "refund-due":
          // Held before, or arriving now (a gateway's payment for an order cancelled meanwhile).
          expect(
            holdsPayment(before) || holdsPayment(decision.next),
            "a refund owed for money the store does not hold",
          ).toBe(true);
          break;
        case "refund-dropped":
          break;
      }
    }
    state = decision.next;
    for (const invariant of LIFE_INVARIANTS) expect(invariant.holds(state), invariant.name).toBe(true);
    // The units are out at most once and back at most once.
    expect(ledger.unitsOut, "units given back twice or taken twice").toBeGreaterThanOrEqual(0);
    expect(ledger.unitsOut).toBeLessThanOrEqual(1);
    // A live order has its units out of stock, unless a parcel returned to sender is still on its way back.
    if (state.status !== "Cancelled") expect(ledger.unitsOut, "a live order without its units").toBe(1);
    if (state.status === "Cancelled" && state.outcome !== "returned") {
      expect(ledger.unitsOut, "a cancelled order still holding its units").toBe(0);
    }
  }
  return state;
}

describe("the order's life, as a model", () => {
  it("keeps its invariants, its stock and its money through any run of events", () => {
    fc.assert(
      fc.property(newOrderArbitrary, fc.array(stepArbitrary, { maxLength: 40 }), (order, steps) => {
        run(order, steps);
      }),
      { numRuns: 3000 },
    );
  });

  it("never lets a reply or the sweep cancel a paid order (issue 45's first finding)", () => {
    const paid = run({ advance: true, phone: "+923001234567", limited: false }, [
      { event: { kind: "reference-sent" }, minutesLater: 5 },
      { event: { kind: "payment-verified", by: "admin" }, minutesLater: 60 },
    ]);
    for (const by of ["sweep", "customer-answer"] as const) {
      const decision = decide(paid, { kind: "cancelled", by }, new Date(PLACED_AT.getTime() + 72 * 3600_000));
      expect(decision.allowed, by).toBe(false);
    }
  });

  it("refuses the customer's cancel of a booked parcel and cancels the consignment on the admin's", () => {
    const booked = run({ advance: false, phone: "+923001234567", limited: false }, [
      { event: { kind: "confirmed", by: "admin" }, minutesLater: 5 },
      { event: { kind: "booking-requested" }, minutesLater: 1 },
      { event: { kind: "booked" }, minutesLater: 0 },
    ]);
    const byCustomer = decide(booked, { kind: "cancelled", by: "customer" }, new Date(PLACED_AT.getTime() + 600_000));
    expect(byCustomer).toMatchObject({ allowed: false, refusal: { code: "HANDED_TO_COURIER" } });
    const byAdmin = decide(booked, { kind: "cancelled", by: "admin" }, new Date(PLACED_AT.getTime() + 600_000));
    expect(byAdmin).toMatchObject({ allowed: true, changed: true, next: { status: "Cancelled", parcel: "none" } });
    expect(byAdmin.allowed && byAdmin.changed && byAdmin.effects).toEqual(["cancel-consignment", "stock-back"]);
  });
});
