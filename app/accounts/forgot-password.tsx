import { Form, Link, redirect, useNavigation } from "react-router";
import { RESET_LINK_SENT } from "../../server/modules/accounts/accounts-values.shared";
import { requestContext } from "../context";
import { Field, FormError, formFailure, formHeaders, formValues } from "../lib/forms";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/forgot-password";

export function loader() {
  return null;
}

/**
 * Mails a reset link if the address has an account; the answer is the same either way
 * (docs/product.md, "Accounts"), shown on the next page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.passwordChanges.requestPasswordReset(values, { ip: clientIp });
  } catch (error) {
    return formFailure(error, values);
  }
  session.setFlash({ tone: "success", message: RESET_LINK_SENT });
  throw redirect("/forgot-password", 303);
}

// Too many requests: 429 with Retry-After, like the API.
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({
  title: "Forgot your password?",
  description: "Get a link by email to choose a new password.",
  path: "/forgot-password",
  noindex: true,
});

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  return (
    <section className="auth-card">
      <h1>Forgot your password?</h1>
      <ForgotPasswordForm actionData={actionData} />
      <p>
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}

/** The email field and its button (also on the page of a reset link that no longer works). */
export function ForgotPasswordForm({
  actionData,
}: {
  actionData?: { fieldErrors?: Record<string, string>; formError?: string; values?: Record<string, string> };
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === "/forgot-password";
  return (
    <>
      <p>Enter the email of your account and we will send you a link to choose a new password. It works for 1 hour.</p>
      <FormError message={actionData?.formError} />
      <Form method="post" action="/forgot-password" noValidate>
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.values?.email}
          error={actionData?.fieldErrors?.email}
          required
        />
        <button type="submit" className="button button--block" disabled={submitting}>
          {submitting ? "Sending..." : "Send Reset Link"}
        </button>
      </Form>
    </>
  );
}
