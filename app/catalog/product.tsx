import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { AddToCartForm } from "../cart/add-to-cart-form";
import { NotFoundScreen } from "../components/not-found-screen";
import { DETAIL_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { RouteErrorScreen } from "../components/route-error-screen";
import { requestContext } from "../context";
import { formatRupees } from "../lib/money";
import { absoluteSiteUrl, pageMeta, siteOf } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { stockLabel } from "./product-card";
import { QuantityStepper } from "./quantity-stepper";
import type { Route } from "./+types/product";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, publicUrl, store } = context.get(requestContext);
  const product = await foundOr404(services.catalog.getProduct(params.productId));
  return { product, structuredData: productStructuredData(product, publicUrl, store.name) };
}

/** schema.org Product, for search engines: price in PKR and whether it can be bought now. */
function productStructuredData(product: PublicProduct, publicUrl: string, storeName: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: absoluteSiteUrl(product.imageUrl || "/images/placeholder-watch.svg", publicUrl),
    sku: product._id,
    category: `${product.category}'s Watches`,
    ...(product.brand ? { brand: { "@type": "Brand", name: product.brand } } : {}),
    offers: {
      "@type": "Offer",
      url: `${publicUrl}/products/${product._id}`,
      priceCurrency: "PKR",
      price: product.price.toFixed(2),
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
      seller: { "@type": "Organization", name: storeName },
    },
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  if (!loaded) return pageMeta(site, { title: "Product not found", noindex: true });
  const { product } = loaded;
  const byBrand = product.brand ? ` by ${product.brand}` : "";
  return pageMeta(site, {
    title: `${product.name}${byBrand}`,
    description: `${product.name}${byBrand}: ${product.description}`.slice(0, 300),
    keywords: [product.brand, product.name, `${product.category.toLowerCase()}'s watches`, "Pakistan"]
      .filter(Boolean)
      .join(", "),
    path: `/products/${product._id}`,
    image: product.imageUrl || undefined,
    type: "product",
  });
};

/** JSON inside a script element: "<" escaped so that no text in it can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, structuredData } = loaderData;
  const inStock = product.stock > 0;
  return (
    <article className="product-detail">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(structuredData) }} />
      <p>
        <Link to="/products">← Back to Products</Link>
      </p>
      <div className="product-detail__grid">
        {/* The largest element of the page: fetched first, never lazily. */}
        <ProductImage
          src={product.imageUrl}
          images={product.images}
          placeholder={product.imagePlaceholder}
          slot={DETAIL_SLOT}
          alt={product.name}
          size={600}
          priority
          className="product-detail__image"
        />
        <div className="product-detail__info">
          <h1>{product.name}</h1>
          <dl className="details">
            {product.brand ? (
              <>
                <dt>Brand</dt>
                <dd>{product.brand}</dd>
              </>
            ) : null}
            <dt>Category</dt>
            <dd>
              <Link to={`/products?category=${product.category}`}>{product.category}</Link>
            </dd>
            <dt>Availability</dt>
            <dd className={inStock ? "stock stock--in" : "stock stock--out"}>{stockLabel(product.stock)}</dd>
          </dl>
          {/* Large and bold, but a figure, not a paragraph or a heading. */}
          <div className="product-detail__price">{formatRupees(product.price)}</div>
          <p className="product-detail__description">{product.description}</p>
          {inStock ? (
            <AddToCartForm productId={product._id} productName={product.name} inStock then="cart">
              <QuantityStepper name="quantity" label="Quantity" max={product.stock} />
            </AddToCartForm>
          ) : (
            <p className="muted">This watch is out of stock at the moment.</p>
          )}
        </div>
      </div>
    </article>
  );
}

/** An unknown or malformed id: "Product not found" with status 404; anything else, the error screen. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFoundScreen
        message="Product not found"
        explanation="This watch is not in our catalogue, or it is no longer sold."
        link={{ to: "/products", label: "Back to Products" }}
      />
    );
  }
  return <RouteErrorScreen error={error} />;
}
