import { Link, redirect } from "react-router";
import { requestContext } from "../context";
import { requireUser } from "../lib/guards";
import { PreviousNextPages, pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { OrderCard } from "./order-display";
import type { Route } from "./+types/my-orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const list = await services.orders.listMyOrders(user._id, {
    page: pageFromUrl(new URL(request.url).searchParams),
    limit: ORDERS_PER_PAGE,
  });
  // A page past the end (orders cancelled away, an old link) shows the last one.
  if (list.orders.length === 0 && list.pagination.totalPages >= 1)
    throw redirect(`/my-orders?page=${list.pagination.totalPages}`);
  // Which of them the customer may still cancel (Pending, less than 2 hours old), and which can be
  // returned (delivered less than 7 days ago, nothing under way; docs/product.md, "Returns").
  const cancellable = list.orders.filter((order) => order.actions.cancel).map((order) => order._id);
  const returnable = list.orders
    .filter((order) => services.orders.returnRefusal(order) === null)
    .map((order) => order._id);
  // The delivered watches not yet reviewed: "Write a review" beside each (docs/product.md, "Reviews").
  const delivered = list.orders
    .filter((order) => order.status === "Delivered")
    .flatMap((order) => order.items.map((item) => item.product._id))
    .filter((id): id is string => id !== null);
  const reviewed = new Set(await services.reviews.reviewedAmong(user._id, delivered));
  const reviewable = [...new Set(delivered)].filter((id) => !reviewed.has(id));
  return { ...list, cancellable, returnable, reviewable };
}

/** The store's default page size (docs/product.md, "Limits"). */
const ORDERS_PER_PAGE = 10;

export const meta: Route.MetaFunction = routeMeta({ title: "My Orders", path: "/my-orders", noindex: true });

export default function MyOrders({ loaderData }: Route.ComponentProps) {
  const { orders, pagination, cancellable, returnable, reviewable } = loaderData;
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
            <OrderCard
              key={order._id}
              order={order}
              cancellable={cancellable.includes(order._id)}
              canReturn={returnable.includes(order._id)}
              reviewable={reviewable}
            />
          ))}
        </div>
      )}
      <PreviousNextPages
        page={pagination.page}
        totalPages={pagination.totalPages}
        href={(page) => `/my-orders?page=${page}`}
      />
    </section>
  );
}
