import { Link } from "react-router";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { OrderNumber, StatusBadge, formatOrderDate } from "../orders/order-display";
import type { Route } from "./+types/dashboard";
import { BackupStatusPanel } from "./backup-status";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const [figures, messageCount, requestedReturns, backups, outbox] = await Promise.all([
    services.reports.dashboardFigures(),
    services.contact.countMessages(),
    services.returnDesk.countRequested(),
    services.backups.status(),
    services.outbox.counts(),
  ]);
  return { ...figures, messageCount, requestedReturns, backups, outbox };
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
  ];
}

/** The admin's start page: the store's figures (computed by PostgreSQL), the admin areas and the latest orders. */
export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const {
    totalOrders,
    totalProducts,
    totalRevenue,
    pendingOrders,
    unconfirmedOrders,
    confirmationToday,
    awaitingConfirmation,
    latestOrders,
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
          <span className="figure__value">{formatRupees(totalRevenue)}</span>
          <span className="figure__note">Cancelled orders are not counted</span>
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
        {latestOrders.length === 0 ? (
          <p className="muted">No orders yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Total</th>
                  <th scope="col">Status</th>
                  <th scope="col">Date</th>
                </tr>
              </thead>
              <tbody>
                {latestOrders.map((order) => (
                  <tr key={order._id}>
                    <td>
                      <Link to={`/admin/orders/${order._id}`}>
                        <OrderNumber id={order._id} />
                      </Link>
                    </td>
                    <td>{order.user.name}</td>
                    <td>{formatRupees(order.totalPrice)}</td>
                    <td>
                      <StatusBadge status={order.status} />
                    </td>
                    <td>{formatOrderDate(order.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <BackupStatusPanel status={backups} />
    </section>
  );
}
