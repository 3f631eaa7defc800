import type { Knex } from "knex";
import type { Courier } from "../../providers/couriers/courier-providers.shared";
import { NotFoundError } from "../shared/errors.shared";
import type { OrderStatus, ReturnToSenderReason } from "./order-values.shared";
import { Order, OrderItem } from "./order.model";

/**
 * An order's life on its own table (docs/product.md, "Orders"): locked for a change, moved to a
 * status, confirmed by phone, and what it holds for the stock's way back. Each part runs in the
 * caller's transaction; the flows (server/flows/) put them together with the other modules'.
 */

/** What a change of an order reads of it, under its row lock. */
export type LockedOrder = Pick<
  Order,
  | "id"
  | "userId"
  | "status"
  | "createdAt"
  | "confirmedAt"
  | "customerName"
  | "customerEmail"
  | "phone"
  | "courier"
  | "trackingNumber"
  | "discountCodeId"
  | "discountCode"
  | "outcomeKind"
  | "receivedBackAt"
  | "paymentMethod"
  | "paymentStatus"
  | "language"
>;

/**
 * The order, locked for the rest of the transaction; with `ownerId` only that customer's order
 * (anyone else's does not exist for them). 404 when there is none.
 */
export async function lockOrder(trx: Knex, orderId: string, options: { ownerId?: string } = {}): Promise<LockedOrder> {
  const query = Order.query(trx).findById(orderId).forUpdate();
  if (options.ownerId !== undefined) query.where("userId", options.ownerId);
  const order = await query.select(
    "id",
    "userId",
    "status",
    "createdAt",
    "confirmedAt",
    "customerName",
    "customerEmail",
    "phone",
    "courier",
    "trackingNumber",
    "discountCodeId",
    "discountCode",
    "outcomeKind",
    "receivedBackAt",
    "paymentMethod",
    "paymentStatus",
    "language",
  );
  if (!order) throw new NotFoundError("Order not found");
  return order;
}

/**
 * The order's units, as a query of `product_id` and `quantity` rows (lines whose product was
 * deleted since have none): the catalogue puts them back in stock in the same statement.
 */
export function orderUnits(trx: Knex, orderId: string): Knex.QueryBuilder {
  return trx("order_items").where({ order_id: orderId }).select("product_id", "quantity");
}

/**
 * The order's lines as sold, as a query of `product_id` (none for a product deleted since),
 * `product_name` and `quantity` rows: the catalogue weighs them for a parcel in the same statement.
 */
export function orderLinesSold(trx: Knex, orderId: string): Knex.QueryBuilder {
  return trx("order_items").where({ order_id: orderId }).select("product_id", "product_name", "quantity");
}

/** The order's lines as sold, for claiming their units again (a line's product may be gone: null). */
export async function orderLines(
  trx: Knex,
  orderId: string,
): Promise<{ productId: string | null; name: string; quantity: number }[]> {
  const items = await OrderItem.query(trx).where({ orderId }).select("productId", "productName", "quantity");
  return items.map((item) => ({ productId: item.productId, name: item.productName, quantity: item.quantity }));
}

/**
 * Moves the order to a status. Becoming Delivered records when (the 7 days of a return run from
 * it), leaving it clears that; the courier and tracking number, given with Shipped, are kept
 * when the status changes later. Leaving Cancelled clears why it was cancelled (by its customer,
 * or the parcel returned to sender): the order is live again.
 */
export async function setOrderStatus(
  trx: Knex,
  order: Pick<LockedOrder, "id" | "status">,
  change: { status: OrderStatus; now: Date; courier?: Courier; trackingNumber?: string; byCustomer?: boolean },
): Promise<void> {
  const { status, courier, trackingNumber } = change;
  const leavesCancelled = order.status === "Cancelled" && status !== "Cancelled";
  await Order.query(trx)
    .findById(order.id)
    .patch({
      status,
      ...(status !== order.status ? { deliveredAt: status === "Delivered" ? change.now : null } : {}),
      ...(change.byCustomer ? { cancelledByCustomer: true } : {}),
      ...(leavesCancelled
        ? { cancelledByCustomer: false, outcomeKind: null, outcomeReason: null, outcomeAt: null, receivedBackAt: null }
        : {}),
      ...(courier ? { courier } : {}),
      ...(trackingNumber ? { trackingNumber } : {}),
    });
}

/**
 * The courier brought a Shipped order's parcel back (docs/product.md, "Returned to sender"): the
 * order becomes Cancelled with the outcome and its reason. Its units stay out of stock until the
 * parcel is received back (recordReceivedBack). The order's life allows it (server/modules/order-life/).
 */
export async function recordReturnedToSender(
  trx: Knex,
  orderId: string,
  outcome: { reason: ReturnToSenderReason; now: Date },
): Promise<void> {
  await Order.query(trx).findById(orderId).patch({
    status: "Cancelled",
    outcomeKind: "returned",
    outcomeReason: outcome.reason,
    outcomeAt: outcome.now,
    deliveredAt: null,
  });
}

/** The returned parcel is back in the store (its units go back in stock with it, once: the order's life). */
export async function recordReceivedBack(trx: Knex, orderId: string, now: Date): Promise<void> {
  await Order.query(trx).findById(orderId).patch({ receivedBackAt: now });
}

/** A booking's courier and tracking number on the order (null, null: the booking was cancelled). */
export async function recordParcel(
  trx: Knex,
  orderId: string,
  parcel: { courier: Courier | null; trackingNumber: string | null },
): Promise<void> {
  await Order.query(trx).findById(orderId).patch(parcel);
}

/** Whether the order has a return that was not rejected (it then stays Delivered), an SQL expression on `orders`. */
export const OPEN_RETURNS_SQL = `EXISTS (SELECT 1 FROM order_returns WHERE order_returns.order_id = orders.id AND order_returns.status <> 'Rejected')`;
