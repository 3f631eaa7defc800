import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { ForbiddenError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import {
  Field,
  NewPasswordFields,
  FormError,
  Honeypot,
  formFailure,
  formHeaders,
  formValues,
  isHoneypotFilled,
} from "../lib/forms";
import { redirectSignedInUser, safeRedirectPath } from "../lib/guards";
import { typedTwice } from "../lib/page-rules.server";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/signup";

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedInUser(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  redirectSignedInUser(context);
  const { services, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (isHoneypotFilled(values)) {
    return formFailure(new ForbiddenError("Your sign-up could not be accepted."), values);
  }
  try {
    // The page asks for the password twice; the API once.
    const { user, credentialsVersion } = await services.accounts.register(
      typedTwice(values, "password", { missing: "Please confirm your password", mismatch: "Passwords do not match" }),
      { ip: clientIp },
    );
    await session.signIn(user._id, credentialsVersion);
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 409: "email" } });
  }
  throw redirect(safeRedirectPath(values.redirectTo), 303);
}

// A refused log-in or sign-up may say when to try again (429 with Retry-After).
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({
  title: "Create an account",
  description: "Create your account to keep a cart, order with cash on delivery and follow your orders.",
  path: "/signup",
  noindex: true,
});

export default function Signup({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const redirectTo = searchParams.get("redirectTo") ?? values.redirectTo ?? "";
  return (
    <section className="auth-card">
      <h1>Create an account</h1>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Honeypot />
        <Field
          name="name"
          label="Full Name"
          autoComplete="name"
          defaultValue={values.name}
          error={errors.name}
          required
        />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
          required
        />
        <NewPasswordFields label="Password" confirmLabel="Confirm Password" errors={errors} />
        <button type="submit" className="button button--block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Creating account..." : "Sign Up"}
        </button>
      </Form>
      <p>
        Already have an account?{" "}
        <Link to={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"}>Log in</Link>
      </p>
    </section>
  );
}
