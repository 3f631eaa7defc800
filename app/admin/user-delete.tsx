import { Form, Link, data, redirect } from "react-router";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/user-delete";

/** The confirmation step of deleting a user: a page of its own, never skipped. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const user = await services.accounts.findUserById(params.userId);
  if (!user) throw data("User not found", { status: 404 });
  return { user };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.accounts.deleteUser(admin._id, params.userId);
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to delete user" });
  }
  session.setFlash({ tone: "success", message: "User deleted successfully!" });
  throw redirect("/admin/users", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Delete User", noindex: true });

export default function ConfirmDeleteUser({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <section className="confirm-page card">
      <h1>Delete User</h1>
      <FormError message={actionData?.formError} />
      <p>
        {user.name} ({user.email})
      </p>
      <p className="confirm-question">
        Are you sure you want to delete this user? This action cannot be undone. Their orders are kept.
      </p>
      <Form method="post" className="actions">
        <button type="submit" className="button button--danger">
          Yes, delete user
        </button>
        <Link className="button button--ghost" to="/admin/users">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
