import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { DiscountForm, discountFormValues } from "./discount-form";
import { discountInput } from "./discount-input.server";
import type { Route } from "./+types/discount-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { discount: await foundOr404(services.discounts.getCode(params.discountId)) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  let code: string;
  try {
    code = (await services.discounts.updateCode(params.discountId, discountInput(values))).code;
  } catch (error) {
    return formFailure(error, values, { fieldFor: { 409: "code" }, fallback: "Failed to save the discount code" });
  }
  session.setFlash({ tone: "success", message: `Discount code ${code} saved` });
  throw redirect("/admin/discounts", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Edit Discount Code", noindex: true });

/** Orders keep the code and amount they were placed with; a code is never deleted, only deactivated. */
export default function EditDiscount({ loaderData, actionData }: Route.ComponentProps) {
  const { discount } = loaderData;
  return (
    <section className="form-page">
      <h1>{`Edit ${discount.code}`}</h1>
      <p className="muted">
        {`Used by ${discount.usedCount} ${discount.usedCount === 1 ? "order" : "orders"} (cancelled ones not counted). Orders keep the code and discount they were placed with.`}
      </p>
      <DiscountForm
        values={discountFormValues(discount, actionData)}
        failure={actionData}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
      />
    </section>
  );
}
