import { Link } from "react-router";
import { requestContext } from "../context";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { OrderCard } from "./order-parts";
import type { Route } from "./+types/my-orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  return services.orders.listMyOrders(user._id);
}

export const meta: Route.MetaFunction = routeMeta({ title: "My Orders", path: "/my-orders", noindex: true });

export default function MyOrders({ loaderData }: Route.ComponentProps) {
  const { orders } = loaderData;
  return (
    <section>
      <h1>My Orders</h1>
      {orders.length === 0 ? (
        <div className="empty-state card">
          <p>You have not placed any orders yet.</p>
          <Link className="button" to="/products">
            Browse Watches
          </Link>
        </div>
      ) : (
        <div className="order-list">
          {orders.map((order) => (
            <OrderCard key={order._id} order={order} />
          ))}
        </div>
      )}
    </section>
  );
}
