import type { PublicOrder } from "../../server/modules/orders/orders.service";
import { formatRupees } from "../lib/money";
import { OrderAddress, OrderItems, StatusBadge, formatOrderDate } from "../orders/order-parts";
import { OrderStatusForm } from "./order-status-form";

/** An order's details for the admin: on its own page, or in the list's dialog with JavaScript. */
export function OrderDetailsBody({ order }: { order: PublicOrder }) {
  return (
    <>
      <dl className="details">
        <dt>Order id</dt>
        <dd>{order._id}</dd>
        <dt>Placed</dt>
        <dd>{formatOrderDate(order.createdAt)}</dd>
        <dt>Customer</dt>
        <dd>{`${order.user.name} (${order.user.email})`}</dd>
        <dt>Ship to</dt>
        <dd>
          <OrderAddress order={order} />
        </dd>
        <dt>Payment</dt>
        <dd>{order.paymentMethod}</dd>
        <dt>Total</dt>
        <dd>{formatRupees(order.totalPrice)}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={order.status} />
          <OrderStatusForm orderId={order._id} status={order.status} place="details" />
        </dd>
      </dl>
      <h2>Items</h2>
      <OrderItems order={order} />
    </>
  );
}
