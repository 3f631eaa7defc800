import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { DiscountForm, discountFormValues } from "./discount-form";
import { discountInput } from "./discount-input.server";
import type { Route } from "./+types/discount-create";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  let code: string;
  try {
    code = (await services.discounts.createCode(discountInput(values))).code;
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 409: "code" }, fallback: "Failed to save the discount code" });
  }
  session.setFlash({ tone: "success", message: `Discount code ${code} created` });
  throw redirect("/admin/discounts", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "New Discount Code", noindex: true });

export default function NewDiscount({ actionData }: Route.ComponentProps) {
  return (
    <section className="form-page">
      <h1>New Discount Code</h1>
      <DiscountForm
        values={discountFormValues(null, actionData)}
        failure={actionData}
        submitLabel="Create Code"
        pendingLabel="Saving..."
      />
    </section>
  );
}
