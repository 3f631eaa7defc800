import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { requestContext } from "../context";
import { Field, FormError, formFailure, formHeaders, formValues } from "../lib/forms";
import { LOGIN_REASON_CART, redirectSignedInUser, safeRedirectPath } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/login";

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedInUser(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  redirectSignedInUser(context);
  const { services, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const { user, credentialsVersion } = await services.accounts.logIn(values, { ip: clientIp });
    // A new session id at log-in: a session id planted before cannot be used to ride along.
    await session.signIn(user._id, credentialsVersion);
  } catch (error) {
    return formFailure(error, values);
  }
  throw redirect(safeRedirectPath(values.redirectTo), 303);
}

// A refused log-in or sign-up may say when to try again (429 with Retry-After).
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({
  title: "Log in",
  description: "Log in to your account to see your cart and orders.",
  path: "/login",
  noindex: true,
});

export default function Login({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const redirectTo = searchParams.get("redirectTo") ?? values.redirectTo ?? "";
  const signupHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup";
  return (
    <section className="auth-card">
      <h1>Log in</h1>
      {searchParams.get("reason") === LOGIN_REASON_CART ? (
        <p className="alert alert--info">
          {"Log in or "}
          <Link to={signupHref}>sign up</Link>
          {" to add this watch to your cart"}
        </p>
      ) : null}
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
          required
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
          required
        />
        <p className="form-aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <button type="submit" className="button button--block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Logging in..." : "Log In"}
        </button>
      </Form>
      <p>
        New to the store? <Link to={signupHref}>Create an account</Link>
      </p>
    </section>
  );
}
