import { Link, data } from "react-router";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderAddress, OrderItems, OrderNumber, StatusBadge, formatOrderDate } from "../orders/order-parts";
import { OrderStatusForm } from "./order-status-form";
import type { Route } from "./+types/order-details";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await services.orders.getOrder(admin, params.orderId).catch((error) => {
    if (error?.kind === "NotFound") throw data("Order not found", { status: 404 });
    throw error;
  });
  return { order };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order Details", noindex: true });

/** An order's details for the admin (RULINGS: a page of its own). */
export default function AdminOrderDetails({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <section className="card order-details">
      <p>
        <Link to="/admin/orders">← Back to Orders</Link>
      </p>
      <h1>
        Order <OrderNumber id={order._id} />
      </h1>
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
          <OrderStatusForm orderId={order._id} status={order.status} />
        </dd>
      </dl>
      <h2>Items</h2>
      <OrderItems order={order} />
    </section>
  );
}
