import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { ProductForm, productFormValues } from "./product-form";
import type { Route } from "./+types/product-create";

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    await services.catalog.createProduct(values);
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to save the product" });
  }
  session.setFlash({ tone: "success", message: "Product created successfully!" });
  throw redirect("/admin/products", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Add Product", path: "/admin/products/new", noindex: true });

export default function CreateProduct({ actionData }: Route.ComponentProps) {
  return (
    <section className="form-page">
      <h1>Add Product</h1>
      <ProductForm
        values={productFormValues(null, actionData)}
        failure={actionData}
        submitLabel="Add Product"
        pendingLabel="Saving..."
      />
    </section>
  );
}
