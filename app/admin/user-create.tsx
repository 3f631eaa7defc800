import { Form, redirect } from "react-router";
import { requestContext } from "../context";
import { Field, NewPasswordFields, FormActions, FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/user-create";

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.accounts.createAdmin(values);
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 409: "email" }, fallback: "Failed to create admin" });
  }
  session.setFlash({ tone: "success", message: "Admin user created successfully!" });
  throw redirect("/admin/users", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Create Admin", path: "/admin/users/new", noindex: true });

export default function CreateAdmin({ actionData }: Route.ComponentProps) {
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <section className="form-page">
      <h1>Create Admin</h1>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="card">
        <Field
          name="name"
          label="Name"
          autoComplete="off"
          defaultValue={values.name}
          error={errors.name}
          required
          minLength={2}
        />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          defaultValue={values.email}
          error={errors.email}
          required
        />
        <NewPasswordFields label="Password" confirmLabel={null} errors={errors} />
        <FormActions label="Create Admin" pendingLabel="Creating..." cancelTo="/admin/users" />
      </Form>
    </section>
  );
}
