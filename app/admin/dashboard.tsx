import { Link } from "react-router";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/dashboard";

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export const meta: Route.MetaFunction = routeMeta({ title: "Admin Dashboard", path: "/admin", noindex: true });

/** The admin's start page: the admin areas (the order figures join when orders exist). */
export default function AdminDashboard() {
  return (
    <section>
      <h1>Admin Dashboard</h1>
      <ul className="collections">
        <li>
          <Link className="collection-card" to="/admin/products">
            <span className="collection-card__title">Manage Products</span>
            <span>Add, edit and delete watches; set prices and stock</span>
          </Link>
        </li>
        <li>
          <Link className="collection-card" to="/admin/users">
            <span className="collection-card__title">Manage Users</span>
            <span>Search users, create admins, change roles</span>
          </Link>
        </li>
      </ul>
    </section>
  );
}
