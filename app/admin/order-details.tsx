import { Link } from "react-router";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber } from "../orders/order-display";
import { OrderDetailsBody } from "./order-details-body";
import type { Route } from "./+types/order-details";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orderDesk.getDeskOrder(params.orderId));
  return { order };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order Details", noindex: true });

/** An order's details for the admin (a page of its own: docs/product.md, "Pages and who may see them"). */
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
      <OrderDetailsBody order={order} />
    </section>
  );
}
