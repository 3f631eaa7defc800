import { Form, redirect, useLocation, useNavigation } from "react-router";
import { ForbiddenError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { Field, FormError, Honeypot, formFailure, formHeaders, formValues, isHoneypotFilled } from "../lib/forms";
import { routeMeta } from "../lib/meta";
import { CONTACT_LIMITS } from "../../server/modules/contact/contact-values.shared";
import { StoreContactDetails } from "./store-contact-details";
import type { Route } from "./+types/contact";

export const THANK_YOU = "Thank you for your message! We'll get back to you soon.";

export function loader({ context }: Route.LoaderArgs) {
  const { user, store } = context.get(requestContext);
  // A signed-in shopper does not retype who they are.
  return { store, sender: user ? { name: user.name, email: user.email } : null };
}

/**
 * The message is posted (it must be, without JavaScript) and kept for the administrators.
 * Post/redirect/get: the thank-you page is a fresh, empty form, and reloading it sends nothing twice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, user, clientIp, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (isHoneypotFilled(values)) {
    return formFailure(new ForbiddenError("Your message could not be sent."), values);
  }
  try {
    await services.contact.sendMessage(values, { ip: clientIp, userId: user?._id ?? null });
  } catch (error) {
    return formFailure(error, values);
  }
  session.setFlash({ tone: "success", message: THANK_YOU });
  throw redirect("/contact", 303);
}

/** A refusal for too many attempts says when to try again. */
export const headers = formHeaders;

export const meta: Route.MetaFunction = routeMeta({
  title: "Contact Us",
  description:
    "Questions about a watch, an order or delivery in Pakistan? Write to us, call, or visit our Lahore store. We answer within one business day.",
  keywords: "contact, watch store Lahore, customer service, cash on delivery",
  path: "/contact",
});

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // A new page (after sending) gets a new, empty form; a refused post keeps what was typed.
  const { key: locationKey } = useLocation();
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const submitting = navigation.state === "submitting" && navigation.formAction === "/contact";
  return (
    <>
      <header className="page-intro">
        <h1>Contact Us</h1>
        <p>
          Questions about a watch, an order or delivery? Write to us and we will get back to you within one business
          day.
        </p>
      </header>
      <div className="contact-layout">
        <section className="card" aria-labelledby="contact-form-heading">
          <h2 id="contact-form-heading">Send us a message</h2>
          <FormError message={actionData?.formError} />
          <Form method="post" noValidate key={locationKey}>
            <Honeypot />
            <Field
              name="name"
              label="Name"
              autoComplete="name"
              required
              maxLength={CONTACT_LIMITS.name}
              defaultValue={values.name ?? loaderData.sender?.name}
              error={errors.name}
            />
            <Field
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              required
              maxLength={CONTACT_LIMITS.email}
              defaultValue={values.email ?? loaderData.sender?.email}
              error={errors.email}
            />
            <Field
              name="subject"
              label="Subject"
              required
              maxLength={CONTACT_LIMITS.subject}
              defaultValue={values.subject}
              error={errors.subject}
            />
            <Field name="message" label="Message" error={errors.message}>
              <textarea
                id="field-message"
                name="message"
                rows={6}
                required
                maxLength={CONTACT_LIMITS.message}
                defaultValue={values.message}
                aria-invalid={errors.message ? true : undefined}
                aria-describedby={errors.message ? "field-message-error" : undefined}
              />
            </Field>
            <button type="submit" className="button" disabled={submitting}>
              {submitting ? "Sending..." : "Send Message"}
            </button>
          </Form>
        </section>
        <StoreContactDetails store={loaderData.store} />
      </div>
    </>
  );
}
