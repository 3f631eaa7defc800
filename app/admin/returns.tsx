import { Form, Link } from "react-router";
import { RETURN_STATUSES, type ReturnStatus } from "../../server/modules/orders/return-values.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { PreviousNextPages, pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, ReturnStatusBadge, formatOrderDate } from "../orders/order-display";
import type { Route } from "./+types/returns";

/** 20 a page (docs/product.md, "Returns"). */
const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  // An unknown status is forgiven (every return), as the other lists forgive.
  const asked = params.get("status") ?? "";
  const status = (RETURN_STATUSES as readonly string[]).includes(asked) ? (asked as ReturnStatus) : "";
  const list = await services.returnDesk.listDeskReturns({ page: pageFromUrl(params), limit: PAGE_SIZE, status });
  return { ...list, status };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Returns", path: "/admin/returns", noindex: true });

/** Returns, newest first, filtered by status; each opens on a page of its own to move it on. */
export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { returns, pagination, status } = loaderData;
  const pageLink = (page: number) =>
    `/admin/returns?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page) })}`;
  return (
    <section>
      <header className="page-header">
        <h1>Returns</h1>
        <p className="muted">{`${pagination.total} ${pagination.total === 1 ? "return" : "returns"}`}</p>
      </header>
      <Form method="get" className="filters" key={status}>
        <div className="field">
          <label htmlFor="return-status-filter">Status</label>
          <select id="return-status-filter" name="status" defaultValue={status}>
            <option value="">All Statuses</option>
            {RETURN_STATUSES.map((option) => (
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
      {returns.length === 0 ? (
        <p>No returns found</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col">Items</th>
                <th scope="col">Reason</th>
                <th scope="col">Refund</th>
                <th scope="col">Status</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {returns.map((orderReturn) => (
                <tr key={orderReturn._id}>
                  <td>{formatOrderDate(orderReturn.createdAt)}</td>
                  <td>
                    <Link to={`/admin/orders/${orderReturn.order}`}>
                      <OrderNumber id={orderReturn.order} />
                    </Link>
                  </td>
                  <td>
                    {orderReturn.customer.name}
                    <div className="muted">{orderReturn.customer.email}</div>
                  </td>
                  <td>{orderReturn.items.map((item) => `${item.quantity} × ${item.product.name}`).join(", ")}</td>
                  <td>{orderReturn.reason}</td>
                  <td>{formatRupees(orderReturn.refundAmount)}</td>
                  <td>
                    <ReturnStatusBadge status={orderReturn.status} />
                  </td>
                  <td>
                    <Link
                      to={`/admin/returns/${orderReturn._id}`}
                      aria-label={`Open the return of order #${shortOrderId(orderReturn.order)}`}
                    >
                      Open
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PreviousNextPages page={pagination.page} totalPages={pagination.totalPages} href={pageLink} />
    </section>
  );
}
