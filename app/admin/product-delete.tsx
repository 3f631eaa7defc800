import { Form, Link, redirect } from "react-router";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { formatRupees } from "../lib/money";
import type { Route } from "./+types/product-delete";

/** The confirmation step of deleting a product: a page of its own, never skipped. */
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
    await services.productRemoval.deleteProduct(params.productId);
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to delete the product" });
  }
  session.setFlash({ tone: "success", message: "Product deleted successfully!" });
  throw redirect("/admin/products", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Delete Product", noindex: true });

export default function ConfirmDeleteProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <section className="confirm-page card">
      <h1>Delete Product</h1>
      <FormError message={actionData?.formError} />
      <p>{`${product.name}${product.brand ? ` (${product.brand})` : ""}, ${formatRupees(product.price)}, ${product.stock} in stock`}</p>
      <p className="confirm-question">Are you sure you want to delete this product?</p>
      <p className="muted">It leaves every shopper's cart; orders already placed keep their copy of it.</p>
      <Form method="post" className="actions">
        <button type="submit" className="button button--danger">
          Yes, delete product
        </button>
        <Link className="button button--ghost" to="/admin/products">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
