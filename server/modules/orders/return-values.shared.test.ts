import { describe, expect, it } from "vitest";
import {
  RETURN_WINDOW_MS,
  returnConflict,
  returnRefusal,
  returnableQuantities,
  type ReturnableOrder,
} from "./return-values.shared";

const deliveredAt = "2026-12-01T09:00:00.000Z";
const order = (changes: Partial<ReturnableOrder> = {}): ReturnableOrder => ({
  status: "Delivered",
  deliveredAt,
  items: [
    { product: { _id: "a" }, quantity: 2 },
    { product: { _id: "b" }, quantity: 1 },
    { product: { _id: null }, quantity: 1 },
  ],
  returns: [],
  ...changes,
});
const at = (ms: number) => new Date(Date.parse(deliveredAt) + ms);

describe("the return window", () => {
  it("is open from delivery until just before 7 × 24 h have passed", () => {
    expect(returnRefusal(order(), at(0))).toBeNull();
    expect(returnRefusal(order(), at(RETURN_WINDOW_MS - 1))).toBeNull();
    expect(returnRefusal(order(), at(RETURN_WINDOW_MS))).toBe("Returns are accepted within 7 days of delivery");
  });

  it("needs a Delivered order and no return under way", () => {
    for (const status of ["Pending", "Shipped", "Cancelled"]) {
      expect(returnConflict(order({ status }), at(0))).toBe("Only delivered orders can be returned");
    }
    for (const status of ["Requested", "Approved"] as const) {
      expect(returnConflict(order({ returns: [{ status, items: [] }] }), at(0))).toBe(
        "This order already has a return in progress",
      );
    }
    expect(returnConflict(order({ returns: [{ status: "Rejected", items: [] }] }), at(0))).toBeNull();
  });
});

describe("what is left to return", () => {
  it("is what was ordered less what earlier returns hold, rejected ones aside; deleted products cannot be picked", () => {
    const earlier = order({
      returns: [
        { status: "Received", items: [{ product: { _id: "a" }, quantity: 1 }] },
        { status: "Rejected", items: [{ product: { _id: "b" }, quantity: 1 }] },
      ],
    });
    expect(Object.fromEntries(returnableQuantities(earlier))).toEqual({ a: 1, b: 1 });
    const all = order({
      returns: [
        {
          status: "Received",
          items: [
            { product: { _id: "a" }, quantity: 2 },
            { product: { _id: "b" }, quantity: 1 },
          ],
        },
      ],
    });
    expect(returnRefusal(all, at(0))).toBe("Every item of this order has been returned already");
    expect(returnConflict(all, at(0))).toBeNull();
  });
});
