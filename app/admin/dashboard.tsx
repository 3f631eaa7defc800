import { Link } from "react-router";
import { formatStoreDate, formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, StatusBadge } from "../orders/order-display";
import type { Route } from "./+types/dashboard";
import { AdminTable } from "./admin-list";
import { BackupStatusPanel } from "./backup-status";
import { ReportChart } from "./report-chart";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const [figures, lastMonth, messageCount, requestedReturns, backups, outbox] = await Promise.all([
    services.reports.dashboardFigures(),
    // No dates: the last 30 days, today included (the sales report's default).
    services.reports.report("sales", {}),
    services.contact.countMessages(),
    services.returnDesk.countRequested(),
    services.backups.status(),
    services.outbox.counts(),
  ]);
  const lastDays = lastMonth.series.map((point) => ({
    label: formatStoreDate(`${point.period}T12:00:00Z`),
    revenue: point.revenue,
    orders: point.orders,
  }));
  return { ...figures, lastDays, messageCount, requestedReturns, backups, outbox };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Admin Dashboard", path: "/admin", noindex: true });

/** Products, orders, users, the contact messages, discount codes, returns and the outbox (docs/product.md, "Admin"). */
function adminAreas(messageCount: number, requestedReturns: number, outbox: { queued: number; failed: number }) {
  return [
    { to: "/admin/products", title: "Manage Products", text: "Add, edit and delete watches; set prices and stock" },
    {
      to: "/admin/orders",
      title: "Manage Orders",
      text: "Find orders, confirm them by phone, ship them, print slips, export CSV",
    },
    { to: "/admin/users", title: "Manage Users", text: "Search users, create admins, change roles" },
    {
      to: "/admin/messages",
      title: "Messages",
      text: `${messageCount} ${messageCount === 1 ? "message" : "messages"} from the contact page`,
    },
    { to: "/admin/discounts", title: "Discount Codes", text: "Create, edit and deactivate codes; see their uses" },
    {
      to: "/admin/returns",
      title: "Returns",
      text: `${requestedReturns} ${requestedReturns === 1 ? "return" : "returns"} waiting for an answer`,
    },
    {
      to: outbox.failed > 0 ? "/admin/outbox?state=failed" : "/admin/outbox",
      title: "Outbox",
      text: `Emails to customers and the store: ${outbox.queued} waiting, ${outbox.failed} failed`,
    },
    {
      to: "/admin/settings/orders",
      title: "Order Settings",
      text: "Cash-on-delivery rules, the blocklist and the checkouts they refused",
    },
  ];
}

/** The admin's start page: the store's figures (computed by PostgreSQL), the admin areas and the latest orders. */
export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const {
    totalOrders,
    totalProducts,
    revenue,
    pendingOrders,
    unconfirmedOrders,
    confirmationToday,
    awaitingConfirmation,
    latestOrders,
    lastDays,
    messageCount,
    requestedReturns,
    backups,
    outbox,
  } = loaderData;
  return (
    <section>
      <h1>Admin Dashboard</h1>
      <ul className="figures">
        <li className="card figure">
          <span className="figure__label">Total Orders</span>
          <span className="figure__value">{totalOrders}</span>
        </li>
        <li className="card figure">
          <span className="figure__label">Total Products</span>
          <span className="figure__value">{totalProducts}</span>
        </li>
        <li className="card figure">
          <span className="figure__label">Total Revenue</span>
          <span className="figure__value">{formatRupees(revenue.total)}</span>
          <dl className="figure__parts">
            <div>
              <dt>Collected</dt>
              <dd>{formatRupees(revenue.collected)}</dd>
            </div>
            <div>
              <dt>To collect</dt>
              <dd>{formatRupees(revenue.toCollect)}</dd>
            </div>
            <div>
              <dt>Cancelled</dt>
              <dd>{formatRupees(revenue.cancelled)}</dd>
            </div>
          </dl>
          <span className="figure__note">
            Collected: delivered cash-on-delivery orders and verified advance payments, less refunds. To collect: orders
            not yet delivered or paid. Cancelled orders are not counted.
          </span>
        </li>
        <li className="card figure">
          <span className="figure__label">Pending Orders</span>
          <span className="figure__value">{pendingOrders}</span>
          <Link className="figure__note" to="/admin/orders?status=Unconfirmed">
            {`${unconfirmedOrders} not confirmed by phone`}
          </Link>
        </li>
        <li className="card figure">
          <span className="figure__label">Confirmed Today</span>
          <span className="figure__value">
            {confirmationToday.asked === 0
              ? "–"
              : `${Math.round((confirmationToday.confirmed / confirmationToday.asked) * 100)}%`}
          </span>
          <span className="figure__note">{`${confirmationToday.confirmed} of ${confirmationToday.asked} orders asked today`}</span>
          <Link className="figure__note" to="/admin/orders?confirmation=pending">
            {`${awaitingConfirmation} waiting for the customer's answer`}
          </Link>
        </li>
      </ul>
      <section className="section dashboard-charts" aria-labelledby="last-30-days">
        <h2 id="last-30-days">The last 30 days</h2>
        <div className="dashboard-charts__row">
          <ReportChart
            kind="line"
            money
            title="Revenue, last 30 days"
            description={`Revenue of the orders placed each day: ${formatRupees(lastDays.reduce((sum, day) => sum + day.revenue, 0))} in all.`}
            points={lastDays.map((day) => ({ label: day.label, value: day.revenue }))}
            xLabel="Day"
            yLabel="Revenue (Rs.)"
          />
          <ReportChart
            kind="bar"
            money={false}
            title="Orders, last 30 days"
            description={`Orders placed each day, not cancelled: ${lastDays.reduce((sum, day) => sum + day.orders, 0)} in all.`}
            points={lastDays.map((day) => ({ label: day.label, value: day.orders }))}
            xLabel="Day"
            yLabel="Orders"
          />
        </div>
        <Link to="/admin/reports">All reports: sales, products, deliveries, confirmation, payments, stock</Link>
      </section>
      <ul className="collections">
        {adminAreas(messageCount, requestedReturns, outbox).map((area) => (
          <li key={area.to}>
            <Link className="collection-card" to={area.to}>
              <span className="collection-card__title">{area.title}</span>
              <span>{area.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <section className="section" aria-labelledby="latest-orders">
        <h2 id="latest-orders">Recent Orders</h2>
        <AdminTable
          rows={latestOrders}
          rowKey={(order) => order._id}
          empty="No orders yet."
          columns={[
            {
              header: "Order",
              title: true,
              cell: (order) => (
                <Link to={`/admin/orders/${order._id}`}>
                  <OrderNumber id={order._id} />
                </Link>
              ),
            },
            { header: "Customer", cell: (order) => order.user.name },
            { header: "Total", cell: (order) => formatRupees(order.totalPrice) },
            { header: "Status", cell: (order) => <StatusBadge status={order.status} /> },
            { header: "Date", cell: (order) => formatStoreDateTime(order.createdAt) },
          ]}
        />
      </section>
      <BackupStatusPanel status={backups} />
    </section>
  );
}
