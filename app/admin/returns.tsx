import { Link } from "react-router";
import { RETURN_STATUSES } from "../../server/modules/orders/return-values.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, ReturnStatusBadge } from "../orders/order-display";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage } from "./admin-list";
import { STATUS_LIST_PAGE_SIZE, statusAsked, statusFilter, statusPageLink } from "./status-list";
import type { Route } from "./+types/returns";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const status = statusAsked(params, RETURN_STATUSES);
  const list = await services.returnDesk.listDeskReturns({
    page: pageFromUrl(params),
    limit: STATUS_LIST_PAGE_SIZE,
    status,
  });
  return { ...list, status };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Returns", path: "/admin/returns", noindex: true });

/** Returns, newest first, filtered by status; each opens on a page of its own to move it on. */
export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { returns, pagination, status } = loaderData;
  return (
    <AdminListPage
      title="Returns"
      summary={`${pagination.total} ${pagination.total === 1 ? "return" : "returns"}`}
      filters={statusFilter(status, RETURN_STATUSES)}
      list={{
        rows: returns,
        rowKey: (orderReturn) => orderReturn._id,
        empty: "No returns found",
        columns: [
          {
            header: "Order",
            title: true,
            cell: (orderReturn) => (
              <Link to={`/admin/orders/${orderReturn.order}`}>
                <OrderNumber id={orderReturn.order} />
              </Link>
            ),
          },
          { header: "Requested", cell: (orderReturn) => formatStoreDateTime(orderReturn.createdAt) },
          {
            header: "Customer",
            cell: (orderReturn) => (
              <>
                {orderReturn.customer.name}
                <div className="muted">{orderReturn.customer.email}</div>
              </>
            ),
          },
          {
            header: "Items",
            cell: (orderReturn) =>
              orderReturn.items.map((item) => `${item.quantity} × ${item.product.name}`).join(", "),
          },
          { header: "Reason", cell: (orderReturn) => orderReturn.reason },
          { header: "Refund", cell: (orderReturn) => formatRupees(orderReturn.refundAmount) },
          { header: "Status", cell: (orderReturn) => <ReturnStatusBadge status={orderReturn.status} /> },
          {
            header: "Details",
            cell: (orderReturn) => (
              <Link
                to={`/admin/returns/${orderReturn._id}`}
                aria-label={`Open the return of order #${shortOrderId(orderReturn.order)}`}
              >
                Open
              </Link>
            ),
          },
        ],
      }}
      pages={{
        page: pagination.page,
        totalPages: pagination.totalPages,
        href: statusPageLink("/admin/returns", status),
      }}
    />
  );
}
