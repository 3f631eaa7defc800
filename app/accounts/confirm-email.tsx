import { Form, Link, data, redirect, useNavigation } from "react-router";
import {
  EMAIL_CHANGE_LINK_INVALID,
  EMAIL_CHANGE_LINK_VALID_HOURS,
} from "../../server/modules/accounts/accounts-values.shared";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/confirm-email";

/**
 * The link mailed to a new address (/confirm-email?token=…): a page with a button, since opening
 * a link must change nothing (mail scanners open links). It needs no sign-in: the customer may
 * open the mail on another device. A link that no longer works is said plainly (400).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const change = await services.profile.checkEmailChangeToken(token);
  if (!change) return data({ valid: false as const, token: "", newEmail: "" }, { status: 400 });
  return { valid: true as const, token, newEmail: change.newEmail };
}

/**
 * The button: the new address becomes the account's, and every other session and token of the
 * account ends (docs/product.md, "Accounts"). This browser stays signed in when it is that
 * account's; otherwise it is sent to log in with the new address.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, session, user } = context.get(requestContext);
  const values = formValues(await request.formData());
  let confirmed;
  try {
    confirmed = await services.emailChange.confirmEmailChange(values, {
      userId: user?._id ?? null,
      sessionId: session.id ?? undefined,
    });
  } catch (error) {
    return formFailure(error, values);
  }
  const { email } = confirmed.user;
  if (confirmed.keptSignIn) {
    await session.keepSignedIn(confirmed.credentialsVersion);
    session.setFlash({ tone: "success", message: `Your email is now ${email}.` });
    throw redirect("/profile", 303);
  }
  session.setFlash({ tone: "success", message: `Your email is now ${email}. Log in with it.` });
  throw redirect(user ? "/" : "/login", 303);
}

/** The address holds a secret token: no cache keeps the page. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = routeMeta({
  title: "Confirm your new email",
  path: "/confirm-email",
  noindex: true,
});

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const refusal = actionData?.formError ?? actionData?.fieldErrors.token;
  if (!loaderData.valid || refusal === EMAIL_CHANGE_LINK_INVALID) {
    return (
      <section className="auth-card">
        <h1>{EMAIL_CHANGE_LINK_INVALID}</h1>
        <p>
          A link works once, within {EMAIL_CHANGE_LINK_VALID_HOURS} hours, and only until the password is changed or
          another change of email is asked for. Your email has not changed.
        </p>
        <p>
          To change it, go to <Link to="/profile/edit">Edit Profile</Link> and save the new address again.
        </p>
      </section>
    );
  }
  if (refusal) {
    return (
      <section className="auth-card">
        <h1>Your email was not changed</h1>
        <FormError message={refusal} />
        <p>
          <Link to="/profile/edit">Edit Profile</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="auth-card">
      <h1>Confirm your new email</h1>
      <p>
        Make <strong>{loaderData.newEmail}</strong> the email of your account? You will log in with it, and every other
        device signed in to your account will be signed out.
      </p>
      {/* Posted to the bare path: the token travels in the body, never in a logged address. */}
      <Form method="post" action="/confirm-email">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="button button--block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Confirming..." : "Confirm Email"}
        </button>
      </Form>
    </section>
  );
}
