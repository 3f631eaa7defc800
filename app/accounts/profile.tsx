import { Form, Link, redirect } from "react-router";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { OrderCard } from "../orders/order-display";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/profile";

/** The profile shows the 3 latest orders (docs/product.md, "Accounts"). */
const LATEST_ORDERS = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const [{ orders, meta }, alerts] = await Promise.all([
    services.orders.listMyOrders(user._id, { limit: LATEST_ORDERS }),
    services.stockAlerts.listWaiting(user.email),
  ]);
  return { user, orders, orderCount: meta.count, alerts };
}

/**
 * The profile's buttons: send the link of a waiting email change again, or cancel that change
 * (docs/product.md, "Accounts"); without an intent, cancel one of the customer's waiting stock
 * alerts (docs/product.md, "Back in stock").
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    if (values.intent === "resend-email-change") {
      const sentTo = await services.profile.resendEmailChangeLink(user._id);
      session.setFlash({ tone: "success", message: `We sent the link to ${sentTo} again.` });
    } else if (values.intent === "cancel-email-change") {
      const dropped = await services.profile.cancelEmailChange(user._id);
      session.setFlash({
        tone: "success",
        message: `Your email stays ${user.email}: the change to ${dropped} was cancelled.`,
      });
    } else {
      const productName = await services.stockAlerts.cancelAlert(user.email, values);
      session.setFlash({ tone: "success", message: `You will not be told when ${productName} is back.` });
    }
  } catch (error) {
    flashRefusal(session, error, "Something went wrong");
  }
  throw redirect("/profile", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "My Profile", path: "/profile", noindex: true });

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { user, orders, orderCount, alerts } = loaderData;
  const address = [
    user.address.street,
    user.address.city,
    user.address.state,
    user.address.zipCode,
    user.address.country,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <section className="profile">
      <header className="page-header">
        <h1>My Profile</h1>
        <span className={`badge badge--role badge--${user.role}`}>{user.role === "admin" ? "Admin" : "Customer"}</span>
      </header>
      <div className="profile__grid">
        <div className="card">
          <h2>Personal information</h2>
          <dl className="details">
            <dt>Name</dt>
            <dd>{user.name}</dd>
            <dt>Email</dt>
            <dd>{user.email}</dd>
            <dt>Phone</dt>
            <dd>{user.phone || "Not provided"}</dd>
            <dt>Address</dt>
            <dd>{address || "Not provided"}</dd>
          </dl>
          {user.pendingEmail ? <PendingEmailChange email={user.email} pendingEmail={user.pendingEmail} /> : null}
          <div className="actions">
            <Link className="button" to="/profile/edit">
              Edit Profile
            </Link>
            <Link className="button button--ghost" to="/profile/password">
              Change Password
            </Link>
          </div>
        </div>
        <aside className="card">
          <h2>Account</h2>
          <dl className="details">
            <dt>Member since</dt>
            <dd>
              {new Date(user.createdAt).toLocaleDateString("en-PK", { year: "numeric", month: "long", day: "numeric" })}
            </dd>
            <dt>Account type</dt>
            <dd>{user.role === "admin" ? "Admin" : "Customer"}</dd>
            <dt>Orders placed</dt>
            <dd>{orderCount}</dd>
          </dl>
          <h2>Quick links</h2>
          <ul className="link-list">
            <li>
              <Link to="/my-orders">My Orders</Link>
            </li>
            <li>
              <Link to="/cart">My Cart</Link>
            </li>
            <li>
              <Link to="/products">Continue Shopping</Link>
            </li>
            {user.role === "admin" ? (
              <li>
                <Link to="/admin">Admin Dashboard</Link>
              </li>
            ) : null}
          </ul>
        </aside>
      </div>
      <section className="card profile__alerts" aria-labelledby="stock-alerts">
        <h2 id="stock-alerts">Stock alerts</h2>
        {alerts.length === 0 ? (
          <p className="muted">
            No alerts waiting. On a watch that is out of stock, choose &quot;Notify me when it&apos;s back&quot;.
          </p>
        ) : (
          <>
            <p>{`We will send ${user.email} one email when each of these is back in stock.`}</p>
            <ul className="alert-list">
              {alerts.map((alert) => (
                <li key={alert._id}>
                  <Link to={`/products/${alert.product._id}`}>{alert.product.name}</Link>
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="alertId" value={alert._id} />
                    <button type="submit" className="button button--small button--ghost">
                      <span>Cancel alert</span>
                      <span className="visually-hidden">{` for ${alert.product.name}`}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section className="profile__orders" aria-labelledby="recent-orders">
        <header className="page-header">
          <h2 id="recent-orders">Recent Orders</h2>
          {orderCount > LATEST_ORDERS ? <Link to="/my-orders">View all orders</Link> : null}
        </header>
        {orders.length === 0 ? (
          <p className="muted">
            No orders yet. <Link to="/products">Start shopping</Link>
          </p>
        ) : (
          <div className="order-list">
            {orders.map((order) => (
              <OrderCard key={order._id} order={order} />
            ))}
          </div>
        )}
      </section>
    </section>
  );
}

/** A change of email waiting for its link: where it goes, and buttons to send the link again or cancel it. */
function PendingEmailChange({ email, pendingEmail }: { email: string; pendingEmail: string }) {
  return (
    <section className="pending-email" aria-labelledby="pending-email">
      <h3 id="pending-email">Email change waiting</h3>
      <p>
        We sent a link to <strong>{pendingEmail}</strong>. Your email changes to it once you open the link; until then
        it stays {email}.
      </p>
      <div className="actions">
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="resend-email-change" />
          <button type="submit" className="button button--small">
            Resend Link
          </button>
        </Form>
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="cancel-email-change" />
          <button type="submit" className="button button--small button--ghost">
            Cancel Email Change
          </button>
        </Form>
      </div>
    </section>
  );
}
