import { useEffect, useRef, useState } from "react";
import { Form, Link, redirect } from "react-router";
import { ORDER_STATUSES, shortOrderId, type OrderStatus } from "../../server/modules/orders/order-values.shared";
import type { PublicOrder } from "../../server/modules/orders/orders.service";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { PreviousNextPages, pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, StatusBadge, formatOrderDate } from "../orders/order-parts";
import { OrderDetailsBody } from "./order-details-body";
import { OrderStatusForm } from "./order-status-form";
import type { Route } from "./+types/orders";

const PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const status = (ORDER_STATUSES as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as OrderStatus)
    : "";
  const page = pageFromUrl(params);
  const list = await services.orders.listOrders({ status, page, limit: PAGE_SIZE });
  return { ...list, status };
}

/** Sets an order's status, from this list or from an order's details page. */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const returnTo = safeRedirectPath(values.returnTo, "/admin/orders");
  try {
    const order = await services.orders.updateStatus(values.orderId ?? "", { status: values.status });
    session.setFlash({ tone: "success", message: `Order status updated to ${order.status}` });
  } catch (error) {
    // The admin sees why (the first store's client only logged it).
    flashRefusal(session, error, "Failed to update order status");
  }
  throw redirect(returnTo, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Manage Orders", path: "/admin/orders", noindex: true });

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, pagination, meta, status } = loaderData;
  const [openOrderId, setOpenOrderId] = useState<string | null>(null);
  const openOrder = orders.find((order) => order._id === openOrderId) ?? null;
  const pageLink = (page: number) =>
    `/admin/orders?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page) })}`;
  return (
    <section>
      <header className="page-header">
        <h1>Manage Orders</h1>
        <p className="muted">{`${meta.count} ${meta.count === 1 ? "order" : "orders"}, revenue ${formatRupees(meta.totalAmount)} (Cancelled orders not counted)`}</p>
      </header>
      <Form method="get" className="filters">
        <div className="field">
          <label htmlFor="order-status-filter">Status</label>
          <select id="order-status-filter" name="status" defaultValue={status}>
            <option value="">All Statuses</option>
            {ORDER_STATUSES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          Filter
        </button>
      </Form>
      {orders.length === 0 ? (
        <p>No orders found</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col">Date</th>
                <th scope="col">Items</th>
                <th scope="col">Total</th>
                <th scope="col">Status</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order._id}>
                  <td>
                    <OrderNumber id={order._id} />
                  </td>
                  <td>
                    {order.user.name}
                    <div className="muted">{order.user.email}</div>
                  </td>
                  <td>{formatOrderDate(order.createdAt)}</td>
                  <td>{order.items.reduce((sum, item) => sum + item.quantity, 0)}</td>
                  <td>{formatRupees(order.totalPrice)}</td>
                  <td>
                    <StatusBadge status={order.status} />
                    <OrderStatusForm orderId={order._id} status={order.status} />
                  </td>
                  <td>
                    <Link
                      to={`/admin/orders/${order._id}`}
                      aria-label={`View order #${shortOrderId(order._id)}`}
                      onClick={(event) => {
                        // With JavaScript the details open in a dialog over the list; without it, the link is a page.
                        event.preventDefault();
                        setOpenOrderId(order._id);
                      }}
                    >
                      View
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {openOrder ? <OrderDialog order={openOrder} onClose={() => setOpenOrderId(null)} /> : null}
      <PreviousNextPages page={pagination.page} totalPages={pagination.totalPages} href={pageLink} />
    </section>
  );
}

/** The order's details as a modal dialog (JavaScript only; the same details are a page without it). */
function OrderDialog({ order, onClose }: { order: PublicOrder; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="order-dialog" aria-labelledby="order-dialog-title" onClose={onClose}>
      <header className="page-header">
        <h2 id="order-dialog-title">{`Order #${shortOrderId(order._id)}`}</h2>
        <button type="button" className="button button--ghost button--small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      <OrderDetailsBody order={order} />
    </dialog>
  );
}
