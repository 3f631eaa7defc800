import { redirect } from "react-router";
import { requestContext } from "../context";
import { formFailure } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { productFormInput } from "../../server/modules/catalog/watch-specs.shared";
import { ProductForm, productFormValues } from "./product-form";
import type { Route } from "./+types/product-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const editing = await foundOr404(services.catalog.getProductForEditing(params.productId));
  return { ...editing, photoFormats: await services.catalog.photoFormats() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
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
    await services.catalog.editProduct(params.productId, productFormInput(form.fields), {
      photo: form.photo,
      removePhoto: form.fields.removeImage === "on",
    });
  } catch (error) {
    return formFailure(error, form.fields, { fallback: "Failed to save the product" });
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
        values={productFormValues(loaderData.product, loaderData.imageUrl, actionData)}
        failure={actionData}
        photoFormats={loaderData.photoFormats}
        product={loaderData.product}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
      />
    </section>
  );
}
