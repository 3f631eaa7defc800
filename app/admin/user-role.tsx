import { Form, Link, data, redirect } from "react-router";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/user-role";

/** The confirmation step of a role change: a page of its own, so it works without JavaScript. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const user = await services.accounts.findUserById(params.userId);
  if (!user) throw data("User not found", { status: 404 });
  const requested = new URL(request.url).searchParams.get("role");
  const role =
    requested === "admin" || requested === "customer" ? requested : user.role === "admin" ? "customer" : "admin";
  return { user, role };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.accounts.changeRole(admin._id, params.userId, { role: values.role });
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to update user role" });
  }
  session.setFlash({ tone: "success", message: "User role updated successfully!" });
  throw redirect("/admin/users", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Change Role", noindex: true });

export default function ConfirmRoleChange({ loaderData, actionData }: Route.ComponentProps) {
  const { user, role } = loaderData;
  return (
    <section className="confirm-page card">
      <h1>Change Role</h1>
      <FormError message={actionData?.formError ?? actionData?.fieldErrors.role} />
      <p>
        {user.name} ({user.email})
      </p>
      <p className="confirm-question">{`Are you sure you want to change this user's role to ${role}?`}</p>
      <Form method="post" className="actions">
        <input type="hidden" name="role" value={role} />
        <button type="submit" className="button">
          Yes, change role
        </button>
        <Link className="button button--ghost" to="/admin/users">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
