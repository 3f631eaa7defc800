/** The order's fixed values: plain data, usable by the pages' browser bundle too. */
export type OrderStatus = "Pending" | "Shipped" | "Delivered" | "Cancelled";
export const ORDER_STATUSES: OrderStatus[] = ["Pending", "Shipped", "Delivered", "Cancelled"];
export const PAYMENT_METHOD = "Cash on Delivery";

/** Orders are shown by the last 8 characters of their id (SPEC section 9). */
export function shortOrderId(id: string): string {
  return id.slice(-8).toUpperCase();
}
