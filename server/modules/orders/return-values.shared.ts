/**
 * Returns' fixed values, messages and the window rule (docs/product.md, "Returns"). Pure data and
 * functions: the customer's and the admin's pages use them too.
 */
export const RETURN_REASONS = [
  "Changed my mind",
  "Damaged or defective",
  "Not as described",
  "Wrong item",
  "Other",
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_STATUSES = ["Requested", "Approved", "Rejected", "Received"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
/** A return still under way: the order takes no other until it is settled. */
export const OPEN_RETURN_STATUSES: readonly ReturnStatus[] = ["Requested", "Approved"];

export const REFUND_METHODS = ["Cash", "Bank transfer", "JazzCash", "Easypaisa"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

export const RETURN_NOTE_MAX = 500;
export const REJECTION_REASON_MAX = 500;
export const REFUND_REFERENCE_MAX = 100;

/** Returns are accepted for 7 × 24 hours after delivery, to the millisecond. */
export const RETURN_WINDOW_DAYS = 7;
export const RETURN_WINDOW_MS = RETURN_WINDOW_DAYS * 24 * 60 * 60 * 1000;

export const ONLY_DELIVERED = "Only delivered orders can be returned";
export const WINDOW_OVER = "Returns are accepted within 7 days of delivery";
export const RETURN_OPEN = "This order already has a return in progress";
export const NOTHING_LEFT = "Every item of this order has been returned already";

/** What the window rule needs of an order. */
export type ReturnableOrder = {
  status: string;
  deliveredAt: string | null;
  items: { product: { _id: string | null }; quantity: number }[];
  returns: { status: ReturnStatus; items: { product: { _id: string | null }; quantity: number }[] }[];
};

/**
 * How many of each product (by id) can still be returned: what was ordered, less what earlier
 * returns hold (all but Rejected ones). Lines whose product was deleted cannot be picked.
 */
export function returnableQuantities(order: ReturnableOrder): Map<string, number> {
  const left = new Map<string, number>();
  for (const item of order.items) {
    if (item.product._id) left.set(item.product._id, (left.get(item.product._id) ?? 0) + item.quantity);
  }
  for (const earlier of order.returns) {
    if (earlier.status === "Rejected") continue;
    for (const item of earlier.items) {
      if (item.product._id && left.has(item.product._id)) {
        left.set(item.product._id, Math.max(0, left.get(item.product._id)! - item.quantity));
      }
    }
  }
  return left;
}

/**
 * Why no return of this order can be opened now (a conflict with its state), or null: it must be
 * Delivered, less than 7 × 24 h ago, with no return under way.
 */
export function returnConflict(order: ReturnableOrder, now: Date): string | null {
  if (order.status !== "Delivered") return ONLY_DELIVERED;
  if (!order.deliveredAt || now.getTime() - new Date(order.deliveredAt).getTime() >= RETURN_WINDOW_MS) {
    return WINDOW_OVER;
  }
  if (order.returns.some((earlier) => OPEN_RETURN_STATUSES.includes(earlier.status))) return RETURN_OPEN;
  return null;
}

/** Why the customer cannot ask for a return of this order now, or null when they can (the pages offer it then). */
export function returnRefusal(order: ReturnableOrder, now: Date): string | null {
  const conflict = returnConflict(order, now);
  if (conflict) return conflict;
  if ([...returnableQuantities(order).values()].every((quantity) => quantity === 0)) return NOTHING_LEFT;
  return null;
}
