import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { ProductForm, productFormValues } from "./product-form";
import type { Route } from "./+types/product-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const product = await foundOr404(services.catalog.getProduct(params.productId));
  return { product };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.catalog.updateProduct(params.productId, values);
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to save the product" });
  }
  session.setFlash({ tone: "success", message: "Product updated successfully!" });
  throw redirect("/admin/products", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Edit Product", noindex: true });

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="form-page">
      <h1>Edit Product</h1>
      <ProductForm
        values={productFormValues(loaderData.product, actionData)}
        failure={actionData}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
      />
    </section>
  );
}
