import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { productFormInput } from "../../server/modules/catalog/watch-specs.shared";
import { ProductForm, productFormValues } from "./product-form";
import type { Route } from "./+types/product-create";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { photoFormats: await services.catalog.photoFormats() };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session, readPhotoForm } = context.get(requestContext);
  // Read only now, after the guard: the post may carry a photo of up to 10 MB.
  let form;
  try {
    form = await readPhotoForm(request);
  } catch (error) {
    return formFailure(error, {}, { fallback: "Failed to save the product" });
  }
  try {
    await services.catalog.createProduct(productFormInput(form.fields), form.photo);
  } catch (error) {
    return formFailure(error, form.fields, { fallback: "Failed to save the product" });
  }
  session.setFlash({ tone: "success", message: "Product created successfully!" });
  throw redirect("/admin/products", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Add Product", path: "/admin/products/new", noindex: true });

export default function CreateProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="form-page">
      <h1>Add Product</h1>
      <ProductForm
        values={productFormValues(null, "", actionData)}
        failure={actionData}
        photoFormats={loaderData.photoFormats}
        submitLabel="Add Product"
        pendingLabel="Saving..."
      />
    </section>
  );
}
