/** The order's fixed values: plain data, usable by the pages' browser bundle too. */
export const ORDER_STATUSES = ["Pending", "Shipped", "Delivered", "Cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_METHOD = "Cash on Delivery";

/** Orders are shown by the last 8 characters of their id (docs/product.md, "Orders"). */
export function shortOrderId(id: string): string {
  return id.slice(-8).toUpperCase();
}
