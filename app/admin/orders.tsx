import { useEffect, useRef, useState } from "react";
import { Link, data, redirect } from "react-router";
import { ORDER_STATUSES, UNCONFIRMED_FILTER, shortOrderId } from "../../server/modules/orders/order-values.shared";
import { DESK_CONFIRMATION_FILTERS } from "../../server/modules/confirmation/order-confirmation.shared";
import type { DeskOrder, DeskOrderList } from "../../server/modules/order-life/order-desk";
import { InvalidInputError } from "../../server/modules/shared/errors.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { requestContext, type RequestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, OrderShipping, StatusBadge } from "../orders/order-display";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage, type ListColumn, type ListFilter } from "./admin-list";
import { CustomerRecord, OrderConfirmation } from "./order-confirmation";
import { OrderDetailsBody } from "./order-details-body";
import { orderFilterFromUrl, withOrderFilter, type OrderFilter } from "./order-filter";
import { OrderStatusForm, shipOrderPath } from "./order-status-form";
import type { Route } from "./+types/orders";

const PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const filter = orderFilterFromUrl(params);
  const page = pageFromUrl(params);
  try {
    const list = await services.orderDesk.listDeskOrders({ ...filter, page, limit: PAGE_SIZE });
    return { ...list, filter, fieldErrors: {} as Record<string, string>, ...courierTools(services) };
  } catch (error) {
    // A date the admin typed wrong: said beside its field, with what was typed kept.
    if (!(error instanceof InvalidInputError)) throw error;
    const empty: DeskOrderList = {
      orders: [],
      pagination: { page: 1, limit: PAGE_SIZE, total: 0, totalPages: 0 },
      meta: { count: 0, totalAmount: 0 },
    };
    return data({ ...empty, filter, fieldErrors: error.fieldErrors, ...courierTools(services) }, { status: 400 });
  }
}

/** The couriers booked through their APIs that are on, for "Book selected" and PostEx's load sheet. */
function courierTools(services: RequestContext["services"]) {
  return { couriers: services.shipping.couriers, hasLoadSheet: services.courierPapers.hasLoadSheet };
}

/**
 * The order desk's posts, from this list or from an order's details page (told apart by
 * `intent`): a status change, a confirmation by phone, or undoing one. Shipped needs the
 * courier and the tracking number, so it goes on to the page that asks for them.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const returnTo = safeRedirectPath(values.returnTo, "/admin/orders");
  const orderId = values.orderId ?? "";
  try {
    if (values.intent === "confirm") {
      const order = await services.fulfilment.confirmOrder(orderId, admin);
      session.setFlash({ tone: "success", message: `Order #${shortOrderId(order._id)} confirmed by phone` });
    } else if (values.intent === "unconfirm") {
      const order = await services.fulfilment.undoConfirmation(orderId);
      session.setFlash({ tone: "success", message: `Confirmation of order #${shortOrderId(order._id)} undone` });
    } else if (values.status === "Shipped" && /^[0-9a-f-]{36}$/i.test(orderId)) {
      throw redirect(shipOrderPath(orderId, returnTo), 303);
    } else {
      const order = await services.fulfilment.updateStatus(orderId, { status: values.status });
      session.setFlash({ tone: "success", message: `Order status updated to ${order.status}` });
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    // The admin sees why (the first store's client only logged it).
    flashRefusal(session, error, "Failed to update order status");
  }
  throw redirect(returnTo, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Manage Orders", path: "/admin/orders", noindex: true });

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, pagination, meta, filter, fieldErrors, couriers, hasLoadSheet } = loaderData;
  const [openOrderId, setOpenOrderId] = useState<string | null>(null);
  const openOrder = orders.find((order) => order._id === openOrderId) ?? null;
  const pageLink = (page: number) => withOrderFilter("/admin/orders", filter, { page: String(page) });
  return (
    <AdminListPage
      title="Manage Orders"
      summary={`${meta.count} ${meta.count === 1 ? "order" : "orders"}, revenue ${formatRupees(meta.totalAmount)} (Cancelled orders not counted)`}
      filters={{ fields: orderFilterFields(filter, fieldErrors), submitLabel: "Filter" }}
      tools={
        <>
          {/* Plain links: a printable page and a download, each for the filter shown. */}
          <a className="button button--ghost" href={withOrderFilter("/admin/orders/slips", filter)}>
            Print slips
          </a>
          <a className="button button--ghost" href={withOrderFilter("/admin/orders/export.csv", filter)} download>
            Export CSV
          </a>
          {hasLoadSheet ? (
            // A plain form: the answer is a PDF, opened as a document.
            <form method="post" action="/admin/orders/load-sheet">
              <button type="submit" className="button button--ghost">
                PostEx load sheet (today)
              </button>
            </form>
          ) : null}
          {couriers.length > 0 ? (
            <BookSelectedForm couriers={couriers} returnTo={withOrderFilter("/admin/orders", filter)} />
          ) : null}
        </>
      }
      list={{
        rows: orders,
        rowKey: (order) => order._id,
        empty: "No orders found",
        columns: [...(couriers.length > 0 ? [bookColumn] : []), ...orderColumns((order) => setOpenOrderId(order._id))],
      }}
      pages={{ page: pagination.page, totalPages: pagination.totalPages, href: pageLink }}
    >
      {openOrder ? <OrderDialog order={openOrder} onClose={() => setOpenOrderId(null)} /> : null}
    </AdminListPage>
  );
}

/**
 * "Book selected": a plain form (with JavaScript or without) whose checkboxes are in the rows, tied
 * to it by their `form` attribute; order-bookings.tsx books them and shows what became of each.
 */
function BookSelectedForm({ couriers, returnTo }: { couriers: { id: string; name: string }[]; returnTo: string }) {
  return (
    <form id="book-selected" method="post" action="/admin/orders/book" className="book-selected">
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor="book-selected-courier">Courier</label>
      <select id="book-selected-courier" name="courier" defaultValue={couriers[0]!.id}>
        {couriers.map((courier) => (
          <option key={courier.id} value={courier.id}>
            {courier.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        Book selected
      </button>
    </form>
  );
}

/** A tick for each order that can be booked: confirmed, Pending, with no courier yet. */
const bookColumn: ListColumn<DeskOrder> = {
  header: "Book",
  cell: (order) =>
    order.status === "Pending" && order.confirmedAt && !order.courier ? (
      <input
        type="checkbox"
        name="orderId"
        value={order._id}
        form="book-selected"
        aria-label={`Select order #${shortOrderId(order._id)} to book`}
      />
    ) : null,
};

/** Search, status (or the Pending orders still to call), the confirmation and a range of days. */
function orderFilterFields(filter: OrderFilter, fieldErrors: Record<string, string>): ListFilter[] {
  return [
    {
      kind: "search",
      name: "search",
      label: "Search",
      value: filter.search,
      error: fieldErrors.search,
      hint: "Order number, name, email or phone",
      maxLength: 100,
    },
    {
      kind: "select",
      name: "status",
      label: "Status",
      value: filter.status,
      options: [
        { value: "", label: "All Statuses" },
        { value: UNCONFIRMED_FILTER, label: "Pending, not confirmed by phone" },
        ...ORDER_STATUSES.map((status) => ({ value: status, label: status })),
      ],
    },
    {
      kind: "select",
      name: "confirmation",
      label: "Confirmation",
      value: filter.confirmation,
      options: [
        { value: "", label: "Any confirmation" },
        ...Object.entries(DESK_CONFIRMATION_FILTERS).map(([value, label]) => ({ value, label })),
      ],
    },
    { kind: "date", name: "from", label: "From", value: filter.from, error: fieldErrors.from },
    { kind: "date", name: "to", label: "To", value: filter.to, error: fieldErrors.to },
  ];
}

/** An order's row: on a phone, a card with its status, total, confirmation and the actions. */
function orderColumns(onOpen: (order: DeskOrder) => void): ListColumn<DeskOrder>[] {
  return [
    { header: "Order", title: true, cell: (order) => <OrderNumber id={order._id} /> },
    {
      header: "Customer",
      cell: (order) => (
        <>
          {order.user.name}
          <div className="muted">{order.user.email}</div>
          <div>{order.phone ? formatPakistaniMobile(order.phone) : <span className="muted">No phone</span>}</div>
          <div className="muted">
            <CustomerRecord order={order} />
          </div>
        </>
      ),
    },
    { header: "Date", cell: (order) => formatStoreDateTime(order.createdAt) },
    { header: "Items", cell: (order) => order.items.reduce((sum, item) => sum + item.quantity, 0) },
    { header: "Total", cell: (order) => formatRupees(order.totalPrice) },
    { header: "Phone confirmation", cell: (order) => <OrderConfirmation order={order} /> },
    {
      header: "Status",
      cell: (order) => (
        <>
          <StatusBadge status={order.status} />
          <OrderStatusForm orderId={order._id} status={order.status} />
          <OrderShipping order={order} />
        </>
      ),
    },
    {
      header: "Details",
      cell: (order) => (
        <div className="actions">
          <Link
            to={`/admin/orders/${order._id}`}
            aria-label={`View order #${shortOrderId(order._id)}`}
            onClick={(event) => {
              // With JavaScript the details open in a dialog over the list; without it, the link is a page.
              event.preventDefault();
              onOpen(order);
            }}
          >
            View
          </Link>
          <a href={`/admin/orders/${order._id}/slip`} aria-label={`Slip of order #${shortOrderId(order._id)}`}>
            Slip
          </a>
        </div>
      ),
    },
  ];
}

/** The order's details as a modal dialog (JavaScript only; the same details are a page without it). */
function OrderDialog({ order, onClose }: { order: DeskOrder; onClose: () => void }) {
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
