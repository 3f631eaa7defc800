import { Form, redirect } from "react-router";
import { requestContext } from "../context";
import { Field, NewPasswordFields, FormActions, FormError, formFailure, formHeaders, formValues } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { typedTwice } from "../lib/page-rules.server";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/profile-password";

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    // This browser stays signed in; every other session and API token ends.
    const { credentialsVersion } = await services.passwordChanges.changePassword(
      user._id,
      typedTwice(values, "newPassword", {
        missing: "Please confirm your new password",
        mismatch: "New passwords do not match",
      }),
      { sessionId: session.id ?? undefined },
      { ip: clientIp },
    );
    await session.keepSignedIn(credentialsVersion);
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 401: "currentPassword" } });
  }
  session.setFlash({ tone: "success", message: "Password changed successfully!" });
  throw redirect("/profile", 303);
}

// Too many attempts: 429 with Retry-After, like the API.
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({
  title: "Change Password",
  path: "/profile/password",
  noindex: true,
});

export default function ProfilePassword({ actionData }: Route.ComponentProps) {
  const errors = actionData?.fieldErrors ?? {};
  return (
    <section className="form-page">
      <h1>Change Password</h1>
      <p>Changing your password signs you out on every other device.</p>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="card">
        <Field
          name="currentPassword"
          label="Current Password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
          required
        />
        <NewPasswordFields
          name="newPassword"
          label="New Password"
          confirmLabel="Confirm New Password"
          errors={errors}
        />
        <FormActions label="Change Password" pendingLabel="Changing..." cancelTo="/profile" />
      </Form>
    </section>
  );
}
