import { Link } from "react-router";
import { FlashBanner } from "../components/flash-banner";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/profile";

const FLASH_MESSAGES: Record<string, string> = {
  updated: "Profile updated successfully!",
  "password-changed": "Password changed successfully!",
};

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const flash = new URL(request.url).searchParams.get("done");
  return { user, flash: flash ? (FLASH_MESSAGES[flash] ?? null) : null };
}

export const meta: Route.MetaFunction = routeMeta({ title: "My Profile", path: "/profile", noindex: true });

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { user, flash } = loaderData;
  const address = [user.address.street, user.address.city, user.address.state, user.address.zipCode, user.address.country]
    .filter(Boolean)
    .join(", ");
  return (
    <section className="profile">
      <FlashBanner message={flash} />
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
            <dd>{new Date(user.createdAt).toLocaleDateString("en-PK", { year: "numeric", month: "long", day: "numeric" })}</dd>
            <dt>Account type</dt>
            <dd>{user.role === "admin" ? "Admin" : "Customer"}</dd>
          </dl>
          <h2>Quick links</h2>
          <ul className="link-list">
            <li><Link to="/my-orders">My Orders</Link></li>
            <li><Link to="/cart">My Cart</Link></li>
            <li><Link to="/products">Continue Shopping</Link></li>
            {user.role === "admin" ? <li><Link to="/admin">Admin Dashboard</Link></li> : null}
          </ul>
        </aside>
      </div>
    </section>
  );
}
