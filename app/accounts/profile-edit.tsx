import { Form, redirect } from "react-router";
import { countryOrDefault } from "../../server/modules/shared/address.shared";
import { requestContext } from "../context";
import { Field, FormActions, FormError, formFailure, formHeaders, formValues } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/profile-edit";

export function loader({ request, context }: Route.LoaderArgs) {
  return { user: requireUser(context, request) };
}

/**
 * Saves the profile. A new email needs the current password and waits for the link mailed to it
 * (docs/product.md, "Accounts"): the banner says where the link went.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  let confirmationSentTo: string | null;
  try {
    ({ confirmationSentTo } = await services.profile.updateProfile(
      user._id,
      {
        name: values.name,
        email: values.email,
        phone: values.phone,
        address: {
          street: values.street,
          city: values.city,
          state: values.state,
          zipCode: values.zipCode,
          country: values.country,
        },
        currentPassword: values.currentPassword,
      },
      { ip: clientIp },
    ));
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 409: "email" } });
  }
  session.setFlash({
    tone: "success",
    message: confirmationSentTo
      ? `We sent a link to ${confirmationSentTo}. Your email changes to it once you open the link.`
      : "Profile updated successfully!",
  });
  throw redirect("/profile", 303);
}

// Too many password attempts: 429 with Retry-After, like the API.
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({ title: "Edit Profile", path: "/profile/edit", noindex: true });

export default function ProfileEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  // After a refused save, the form shows what was typed, not what is stored.
  const value = (name: string, stored: string) => actionData?.values[name] ?? stored;
  return (
    <section className="form-page">
      <h1>Edit Profile</h1>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="card">
        <Field
          name="name"
          label="Full Name"
          autoComplete="name"
          defaultValue={value("name", user.name)}
          error={errors.name}
          required
        />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={value("email", user.email)}
          error={errors.email}
          hint="A new email takes effect once you open the link we send to it."
          required
        />
        <Field
          name="currentPassword"
          label="Current Password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
          hint="Needed only to change your email."
        />
        <Field
          name="phone"
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          defaultValue={value("phone", user.phone)}
          error={errors.phone}
        />
        <fieldset>
          <legend>Address</legend>
          <Field
            name="street"
            label="Street Address"
            autoComplete="street-address"
            defaultValue={value("street", user.address.street)}
            error={errors.street}
          />
          <Field
            name="city"
            label="City"
            autoComplete="address-level2"
            defaultValue={value("city", user.address.city)}
            error={errors.city}
          />
          <Field
            name="state"
            label="State / Province"
            autoComplete="address-level1"
            defaultValue={value("state", user.address.state)}
            error={errors.state}
          />
          <Field
            name="zipCode"
            label="ZIP / Postal Code"
            autoComplete="postal-code"
            defaultValue={value("zipCode", user.address.zipCode)}
            error={errors.zipCode}
          />
          <Field
            name="country"
            label="Country"
            autoComplete="country-name"
            defaultValue={value("country", countryOrDefault(user.address.country))}
            error={errors.country}
          />
        </fieldset>
        <FormActions label="Save Changes" pendingLabel="Saving..." cancelTo="/profile" />
      </Form>
    </section>
  );
}
