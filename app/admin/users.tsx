import { Form, Link, redirect, useLocation } from "react-router";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { pageFromUrl, searchFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage } from "./admin-list";
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
    <AdminListPage
      title="Manage Users"
      action={
        <Link className="button" to="/admin/users/new">
          Create Admin
        </Link>
      }
      summary={`${pagination.total} ${pagination.total === 1 ? "user" : "users"}`}
      filters={{
        fields: [
          { kind: "search", name: "search", label: "Search by name or email", value: search, maxLength: 100 },
          {
            kind: "select",
            name: "role",
            label: "Role",
            value: role,
            options: [
              { value: "", label: "All Roles" },
              { value: "customer", label: "Customer" },
              { value: "admin", label: "Admin" },
            ],
          },
        ],
        submitLabel: "Search",
      }}
      list={{
        rows: users,
        rowKey: (user) => user._id,
        empty: "No users found",
        columns: [
          { header: "Name", title: true, cell: (user) => user.name },
          { header: "Email", cell: (user) => user.email },
          {
            header: "Role",
            cell: (user) => (
              <span className={`badge badge--role badge--${user.role}`}>
                {user.role === "admin" ? "Admin" : "Customer"}
              </span>
            ),
          },
          { header: "Joined", cell: (user) => formatStoreDateTime(user.createdAt) },
          {
            header: "Actions",
            cell: (user) => {
              const otherRole = user.role === "admin" ? "customer" : "admin";
              return (
                <div className="actions">
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="userId" value={user._id} />
                    <input type="hidden" name="returnTo" value={location.pathname + location.search} />
                    <button type="submit" className="button button--small button--ghost">
                      <span>Send reset link</span>
                      <span className="visually-hidden">{` to ${user.email}`}</span>
                    </button>
                  </Form>
                  {user._id === currentUserId ? (
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
                </div>
              );
            },
          },
        ],
      }}
      pages={{ page: pagination.page, totalPages: pagination.totalPages, href: pageLink }}
    />
  );
}
