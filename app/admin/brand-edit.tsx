import { Form, redirect } from "react-router";
import { BRAND_DESCRIPTION_MAX_LENGTH } from "../../server/modules/catalog/brands.shared";
import { requestContext } from "../context";
import { Field, FormActions, FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import type { Route } from "./+types/brand-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { brand: await foundOr404(services.catalog.getBrand(params.slug)) };
}

/** Saves the brand's text; its page shows it at once (the page cache keeps no brand page: server/http/page-cache.ts). */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const brand = await foundOr404(services.catalog.updateBrandText(params.slug, { description: values.description }));
    session.setFlash({ tone: "success", message: `Saved the text of ${brand.name}` });
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to save the brand" });
  }
  throw redirect("/admin/brands", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Edit Brand", noindex: true });

export default function EditBrand({ loaderData, actionData }: Route.ComponentProps) {
  const { brand } = loaderData;
  const error = actionData?.fieldErrors?.description;
  return (
    <section className="form-page">
      <h1>{`Edit ${brand.name}`}</h1>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="card">
        <Field
          name="description"
          label="Short text"
          error={error}
          hint={`Shown on /brands/${brand.slug} above its watches; at most ${BRAND_DESCRIPTION_MAX_LENGTH} characters`}
        >
          <textarea
            id="field-description"
            name="description"
            rows={6}
            maxLength={BRAND_DESCRIPTION_MAX_LENGTH}
            defaultValue={actionData?.values?.description ?? brand.description}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? "field-description-error" : "", "field-description-hint"].join(" ").trim()}
          />
        </Field>
        <FormActions label="Save Text" pendingLabel="Saving..." cancelTo="/admin/brands" />
      </Form>
    </section>
  );
}
