import { Form, Link, redirect } from "react-router";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import {
  SPEC_DEFINITIONS,
  SPEC_KEYS,
  specText,
  type SpecDefinition,
} from "../../server/modules/catalog/watch-specs.shared";
import { MAX_COMPARED_WATCHES } from "../../server/modules/catalog/comparison-values.shared";
import { AddToCartForm } from "../cart/add-to-cart-form";
import { CARD_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { safeRedirectPath } from "../lib/guards";
import { formatRupees } from "../lib/money";
import { pageMeta, siteOf } from "../lib/meta";
import { comparedIdsCookie, comparedIdsOf } from "./compare-cookie.server";
import { stockLabel } from "./product-card";
import type { Route } from "./+types/compare";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const products = await services.comparison.comparedProducts(await comparedIdsOf(request));
  return { products: products.map(comparedProductOf) };
}

/**
 * Compare, Remove and Clear (docs/product.md, "Compare"): the list is kept in the shopper's
 * cookie, then the shopper goes back where they pressed it with a message. A refusal (four
 * watches already) shows this page, where one can be removed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  let changed;
  try {
    changed = await services.comparison.change(await comparedIdsOf(request), values);
  } catch (error) {
    return formFailure(error, values);
  }
  session.setFlash({ tone: "success", message: changed.message });
  return redirect(safeRedirectPath(values.returnTo, "/compare"), {
    status: 303,
    headers: { "Set-Cookie": await comparedIdsCookie(changed.ids, request) },
  });
}

// What the page shows depends on the shopper's cookie: never kept by a shared cache.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-cache" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteOf(matches), { title: "Compare watches", noindex: true });

type ComparedProduct = Pick<
  PublicProduct,
  "_id" | "name" | "brand" | "price" | "stock" | "imageUrl" | "images" | "imagePlaceholder" | "specs"
>;

function comparedProductOf(product: PublicProduct): ComparedProduct {
  const { _id, name, brand, price, stock, imageUrl, images, imagePlaceholder, specs } = product;
  return { _id, name, brand, price, stock, imageUrl, images, imagePlaceholder, specs };
}

type Row = { label: string; cells: string[]; differs: boolean };

/**
 * The table's rows: brand, price and stock, then each specification at least one watch has, as
 * the product page says it. A row differs when its watches do not all say the same.
 */
function rowsOf(products: ComparedProduct[]): Row[] {
  const row = (label: string, cells: string[]): Row => ({
    label,
    cells,
    differs: products.length > 1 && new Set(cells).size > 1,
  });
  const specRows = SPEC_KEYS.flatMap((key) => {
    const cells = products.map((product) => specText(key, product.specs[key]) ?? "—");
    const definition: SpecDefinition = SPEC_DEFINITIONS[key];
    return cells.every((cell) => cell === "—") ? [] : [row(definition.label, cells)];
  });
  return [
    row(
      "Brand",
      products.map((product) => product.brand || "—"),
    ),
    row(
      "Price",
      products.map((product) => formatRupees(product.price)),
    ),
    row(
      "Availability",
      products.map((product) => stockLabel(product.stock)),
    ),
    ...specRows,
  ];
}

export default function ComparePage({ loaderData, actionData }: Route.ComponentProps) {
  const { products } = loaderData;
  const rows = rowsOf(products);
  const differing = rows.filter((row) => row.differs).length;
  return (
    <section className="compare">
      <header className="page-header">
        <h1>Compare watches</h1>
        <p className="muted">
          {products.length === 0
            ? `Up to ${MAX_COMPARED_WATCHES} watches side by side`
            : `${products.length} of ${MAX_COMPARED_WATCHES} watches` +
              (products.length > 1 ? ` · ${differing} ${differing === 1 ? "difference" : "differences"} marked` : "")}
        </p>
      </header>
      <FormError message={actionData?.formError ?? actionData?.fieldErrors?.productId} />
      {products.length === 0 ? (
        <div className="empty-state">
          <p>No watches to compare yet. Press Compare on a watch to add it here.</p>
          <Link to="/products">Browse watches</Link>
        </div>
      ) : (
        <>
          {/* Scrolls sideways on a phone, the row names fixed at the left (app.css, ".compare__table").
              A keyboard scrolls it only if it can take focus. */}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above */}
          <div className="compare__scroll" tabIndex={0} role="region" aria-label="Comparison table">
            <table className="compare__table">
              <caption className="visually-hidden">
                The compared watches side by side; rows marked Differs are not the same for every watch.
              </caption>
              <thead>
                <tr>
                  <td />
                  {products.map((product) => (
                    <th key={product._id} scope="col">
                      <Link to={`/products/${product._id}`} className="compare__product">
                        <ProductImage
                          src={product.imageUrl}
                          images={product.images}
                          placeholder={product.imagePlaceholder}
                          slot={CARD_SLOT}
                          alt=""
                          size={400}
                          eager
                        />
                        <span>{product.name}</span>
                      </Link>
                      <RemoveButton productId={product._id} productName={product.name} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.label} className={row.differs ? "compare__row--differs" : undefined}>
                    <th scope="row">
                      {row.label}
                      {row.differs ? <span className="compare__differs">Differs</span> : null}
                    </th>
                    {row.cells.map((cell, index) => (
                      <td key={products[index]!._id}>{cell}</td>
                    ))}
                  </tr>
                ))}
                <tr>
                  <th scope="row">
                    <span className="visually-hidden">Buy</span>
                  </th>
                  {products.map((product) => (
                    <td key={product._id}>
                      <AddToCartForm
                        productId={product._id}
                        productName={product.name}
                        inStock={product.stock > 0}
                        then="stay"
                      />
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </div>
          <Form method="post" className="compare__clear">
            <input type="hidden" name="returnTo" value="/compare" />
            <button type="submit" name="intent" value="clear" className="link-button">
              Clear the comparison
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

function RemoveButton({ productId, productName }: { productId: string; productName: string }) {
  return (
    <Form method="post" className="compare__remove">
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="returnTo" value="/compare" />
      <button type="submit" name="intent" value="remove" className="link-button">
        Remove<span className="visually-hidden">{` ${productName}`}</span>
      </button>
    </Form>
  );
}
