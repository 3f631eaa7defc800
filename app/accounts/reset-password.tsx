import { Form, data, redirect, useNavigation } from "react-router";
import { PASSWORD_RESET_DONE, RESET_LINK_INVALID } from "../../server/modules/accounts/accounts-values.shared";
import { requestContext } from "../context";
import { FormError, NewPasswordFields, formFailure, formValues } from "../lib/forms";
import { routeMeta } from "../lib/meta";
import { typedTwice } from "../lib/page-rules.server";
import { ForgotPasswordForm } from "./forgot-password";
import type { Route } from "./+types/reset-password";

/** The link from the mail: the form while its token works, else a clear page and the form to ask again (400). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await services.passwordChanges.checkResetToken(token);
  return data({ valid, token: valid ? token : "" }, { status: valid ? 200 : 400 });
}

/**
 * The new password (twice, with the sign-up messages). Every session and token of the account
 * ends; this browser is signed in afresh (docs/product.md, "Accounts").
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const { user, credentialsVersion } = await services.passwordChanges.resetPassword(
      typedTwice(values, "password", { missing: "Please confirm your password", mismatch: "Passwords do not match" }),
    );
    await session.signIn(user._id, credentialsVersion);
  } catch (error) {
    return formFailure(error, values);
  }
  session.setFlash({ tone: "success", message: PASSWORD_RESET_DONE });
  throw redirect("/", 303);
}

/** The address holds a secret token: no cache keeps the page. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = routeMeta({
  title: "Choose a new password",
  path: "/reset-password",
  noindex: true,
});

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  const invalid = !loaderData.valid || actionData?.formError === RESET_LINK_INVALID || errors.token;
  if (invalid) {
    return (
      <section className="auth-card">
        <h1>{RESET_LINK_INVALID}</h1>
        <p>A link works once, within 1 hour of asking, and only until the password is changed. Ask for a new one:</p>
        <ForgotPasswordForm />
      </section>
    );
  }
  return (
    <section className="auth-card">
      <h1>Choose a new password</h1>
      <p>Every device signed in to your account will be signed out; this one will be signed in.</p>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields label="New Password" confirmLabel="Confirm New Password" errors={errors} />
        <button type="submit" className="button button--block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Saving..." : "Reset Password"}
        </button>
      </Form>
    </section>
  );
}
