import { Link } from "react-router";
import { RETURN_STATUSES, type ReturnStatus } from "../../server/modules/orders/return-values.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, ReturnStatusBadge } from "../orders/order-display";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage } from "./admin-list";
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
    <AdminListPage
      title="Returns"
      summary={`${pagination.total} ${pagination.total === 1 ? "return" : "returns"}`}
      filters={{
        fields: [
          {
            kind: "select",
            name: "status",
            label: "Status",
            value: status,
            options: [
              { value: "", label: "All Statuses" },
              ...RETURN_STATUSES.map((option) => ({ value: option, label: option })),
            ],
          },
        ],
        submitLabel: "Filter",
      }}
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
      pages={{ page: pagination.page, totalPages: pagination.totalPages, href: pageLink }}
    />
  );
}
