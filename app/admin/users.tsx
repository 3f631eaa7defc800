import { Form, Link, redirect, useLocation } from "react-router";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { PreviousNextPages, pageFromUrl, searchFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/users";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const search = searchFromUrl(params, 100);
  const role = ["customer", "admin"].includes(params.get("role") ?? "") ? params.get("role")! : "";
  const page = pageFromUrl(params);
  // A page is forgiving: an unknown filter value is simply no filter.
  const { users, pagination } = await services.accounts.listUsers({ search, role, page });
  return { users, pagination, search, role, currentUserId: admin._id };
}

/**
 * Sends a user a link to choose a new password (docs/product.md, "Accounts"): the admin never
 * sets or sees a password.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const back = safeRedirectPath(values.returnTo, "/admin/users");
  const returnTo = back.startsWith("/admin/users") ? back : "/admin/users";
  try {
    const email = await services.passwordChanges.sendResetLink(values);
    session.setFlash({ tone: "success", message: `A password reset link was sent to ${email}` });
  } catch (error) {
    flashRefusal(session, error, "Failed to send the reset link");
  }
  throw redirect(returnTo, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Manage Users", path: "/admin/users", noindex: true });

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { users, pagination, search, role, currentUserId } = loaderData;
  const location = useLocation();
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    if (search) params.set("search", search);
    if (role) params.set("role", role);
    params.set("page", String(page));
    return `/admin/users?${params}`;
  };
  return (
    <section>
      <header className="page-header">
        <h1>Manage Users</h1>
        <Link className="button" to="/admin/users/new">
          Create Admin
        </Link>
      </header>
      <Form method="get" className="filters" role="search">
        <div className="field">
          <label htmlFor="user-search">Search by name or email</label>
          <input id="user-search" type="search" name="search" defaultValue={search} maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select id="user-role" name="role" defaultValue={role}>
            <option value="">All Roles</option>
            <option value="customer">Customer</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </Form>
      <p>
        {pagination.total} {pagination.total === 1 ? "user" : "users"}
      </p>
      {users.length === 0 ? (
        <p>No users found</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => {
                const otherRole = user.role === "admin" ? "customer" : "admin";
                const isSelf = user._id === currentUserId;
                return (
                  <tr key={user._id}>
                    <td>{user.name}</td>
                    <td>{user.email}</td>
                    <td>
                      <span className={`badge badge--role badge--${user.role}`}>
                        {user.role === "admin" ? "Admin" : "Customer"}
                      </span>
                    </td>
                    <td>{new Date(user.createdAt).toLocaleDateString("en-PK")}</td>
                    <td className="actions">
                      <Form method="post" className="inline-form">
                        <input type="hidden" name="userId" value={user._id} />
                        <input type="hidden" name="returnTo" value={location.pathname + location.search} />
                        <button type="submit" className="button button--small button--ghost">
                          <span>Send reset link</span>
                          <span className="visually-hidden">{` to ${user.email}`}</span>
                        </button>
                      </Form>
                      {isSelf ? (
                        <span className="muted">This is you</span>
                      ) : (
                        <>
                          <Link
                            className="button button--small button--ghost"
                            to={`/admin/users/${user._id}/role?role=${otherRole}`}
                          >
                            Make {otherRole === "admin" ? "Admin" : "Customer"}
                          </Link>
                          <Link className="button button--small button--danger" to={`/admin/users/${user._id}/delete`}>
                            Delete
                          </Link>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <PreviousNextPages page={pagination.page} totalPages={pagination.totalPages} href={pageLink} />
    </section>
  );
}
