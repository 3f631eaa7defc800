import {
  Form,
  Link,
  isRouteErrorResponse,
  redirect,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { ForbiddenError } from "../../server/modules/shared/errors.shared";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { AddToCartForm } from "../cart/add-to-cart-form";
import { NotFoundScreen } from "../components/not-found-screen";
import { DETAIL_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { RouteErrorScreen } from "../components/route-error-screen";
import { requestContext } from "../context";
import { Field, FormError, Honeypot, formFailure, formHeaders, formValues, isHoneypotFilled } from "../lib/forms";
import { formatRupees } from "../lib/money";
import { absoluteSiteUrl, pageMeta, siteOf } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { BrandName, RatingSummary, stockLabel } from "./product-card";
import { ProductReviews } from "./product-reviews";
import type { PublicReview } from "../../server/modules/reviews/review.shape";
import type { RootData } from "../root";
import { QuantityStepper } from "./quantity-stepper";
import { CompareButton } from "./compare-controls";
import {
  SPEC_DEFINITIONS,
  SPEC_KEYS,
  specText,
  type SpecDefinition,
  type WatchSpecs,
} from "../../server/modules/catalog/watch-specs.shared";
import type { Route } from "./+types/product";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const {
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    ...product
  } = await foundOr404(services.catalog.getProduct(params.productId));
  // The page shows no dates; its structured data is made from the product as it renders, rather
  // than sent twice (in the page and again in the data for hydration).
  // A signed-in customer's alerts go to the account's address (the field is hidden and filled).
  // The first page of published reviews only when there are some (the kept count says so).
  const [reviews, reviewChance] = await Promise.all([
    product.reviewCount > 0 ? services.reviews.listPublished(product._id, {}).then((list) => list.reviews) : [],
    user ? services.reviews.reviewChance(user._id, product._id) : null,
  ]);
  return { product, alertEmail: user?.email ?? null, reviews, reviewChance };
}

/**
 * "Notify me when it's back" on an out-of-stock watch (docs/product.md, "Back in stock"): no
 * sign-in needed, a honeypot against bots, rate-limited; asking twice is accepted and changes nothing.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { services, user, session, clientIp } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (isHoneypotFilled(values)) {
    return formFailure(new ForbiddenError("Your request could not be accepted."), values);
  }
  try {
    const { email, productName } = await services.stockAlerts.requestAlert(params.productId, values, {
      ip: clientIp,
      email: user?.email,
    });
    session.setFlash({ tone: "success", message: `We will email ${email} when ${productName} is back in stock.` });
  } catch (error) {
    return formFailure(error, values);
  }
  throw redirect(`/products/${params.productId}`, 303);
}

// Too many requests: 429 with Retry-After, like the API.
export const headers: Route.HeadersFunction = formHeaders;

/** The specifications filled in, in the list's order, each as the page says it. */
function filledSpecs(specs: WatchSpecs): { label: string; text: string; definition: SpecDefinition; value: unknown }[] {
  return SPEC_KEYS.flatMap((key) => {
    const text = specText(key, specs[key]);
    const definition: SpecDefinition = SPEC_DEFINITIONS[key];
    return text === null ? [] : [{ label: definition.label, text, definition, value: specs[key] }];
  });
}

/** The specifications as schema.org PropertyValues: numbers with their unit, the rest as the page says them. */
function additionalProperties(specs: WatchSpecs) {
  return filledSpecs(specs).map(({ label, text, definition, value }) =>
    definition.kind === "number"
      ? { "@type": "PropertyValue", name: label, value, unitText: definition.unit }
      : { "@type": "PropertyValue", name: label, value: text },
  );
}

/**
 * schema.org Product, for search engines: price in PKR and whether it can be bought now; the
 * approved reviews' figures and the reviews shown, only when there are some.
 */
function productStructuredData(
  product: Omit<PublicProduct, "createdAt" | "updatedAt">,
  reviews: PublicReview[],
  publicUrl: string,
  storeName: string,
) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: absoluteSiteUrl(product.imageUrl || "/images/placeholder-watch.svg", publicUrl),
    sku: product._id,
    category: `${product.category}'s Watches`,
    ...(product.brand ? { brand: { "@type": "Brand", name: product.brand } } : {}),
    ...(filledSpecs(product.specs).length > 0 ? { additionalProperty: additionalProperties(product.specs) } : {}),
    offers: {
      "@type": "Offer",
      url: `${publicUrl}/products/${product._id}`,
      priceCurrency: "PKR",
      price: product.price.toFixed(2),
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
      seller: { "@type": "Organization", name: storeName },
    },
    ...(product.rating !== null && product.reviewCount > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: product.rating,
            reviewCount: product.reviewCount,
            bestRating: 5,
            worstRating: 1,
          },
          review: reviews.map((review) => ({
            "@type": "Review",
            name: review.title,
            reviewBody: review.text,
            datePublished: (review.publishedAt ?? review.createdAt).slice(0, 10),
            author: { "@type": "Person", name: review.author },
            reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {}),
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

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, alertEmail, reviews, reviewChance } = loaderData;
  const site = (useRouteLoaderData("root") as RootData | undefined)?.site;
  const structuredData = site ? productStructuredData(product, reviews, site.publicUrl, site.name) : null;
  const inStock = product.stock > 0;
  return (
    <article className="product-detail">
      {structuredData ? (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(structuredData) }} />
      ) : null}
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
          <RatingSummary rating={product.rating} count={product.reviewCount} link="#reviews" />
          {/* Price and Add to Cart first, within a phone's first screen; on a phone they stay at the
              bottom of the screen while the details below are read (app.css, ".product-buy"). */}
          <div className={inStock ? "product-buy product-buy--sticky" : "product-buy"}>
            {/* Large and bold, but a figure, not a paragraph or a heading. */}
            <div className="product-detail__price">{formatRupees(product.price)}</div>
            {inStock ? (
              <AddToCartForm productId={product._id} productName={product.name} inStock then="cart">
                <QuantityStepper name="quantity" label="Quantity" max={product.stock} />
              </AddToCartForm>
            ) : null}
          </div>
          {inStock ? null : (
            <>
              <p className="muted">This watch is out of stock at the moment.</p>
              <NotifyMeForm email={alertEmail} failure={actionData} />
            </>
          )}
          <dl className="details">
            {product.brand ? (
              <>
                <dt>Brand</dt>
                <dd>
                  <BrandName brand={product.brand} />
                </dd>
              </>
            ) : null}
            <dt>Category</dt>
            <dd>
              <Link to={`/products?category=${product.category}`}>{product.category}</Link>
            </dd>
            <dt>Availability</dt>
            <dd className={inStock ? "stock stock--in" : "stock stock--out"}>{stockLabel(product.stock)}</dd>
          </dl>
          <p className="product-detail__description">{product.description}</p>
          <SpecsTable specs={product.specs} />
          <p>
            <CompareButton productId={product._id} productName={product.name} />
          </p>
        </div>
      </div>
      <ProductReviews productId={product._id} count={product.reviewCount} reviews={reviews} chance={reviewChance} />
    </article>
  );
}

/** The specifications table: only what is filled in, and nothing without any. */
function SpecsTable({ specs }: { specs: WatchSpecs }) {
  const rows = filledSpecs(specs);
  if (rows.length === 0) return null;
  return (
    <section className="specs" aria-labelledby="specs-heading">
      <h2 id="specs-heading">Specifications</h2>
      <table className="specs__table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{row.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One email when the watch is back; a signed-in customer's address is filled in and hidden. */
function NotifyMeForm({
  email,
  failure,
}: {
  email: string | null;
  failure?: { fieldErrors?: Record<string, string>; formError?: string; values?: Record<string, string> };
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formMethod === "POST";
  return (
    <section className="notify-me card" aria-labelledby="notify-me-heading">
      <h2 id="notify-me-heading">Notify me when it&apos;s back</h2>
      <FormError message={failure?.formError} />
      <Form method="post" noValidate>
        <Honeypot />
        {email ? (
          <>
            <input type="hidden" name="email" value={email} />
            <p>{`We will send one email to ${email} when this watch is back in stock.`}</p>
          </>
        ) : (
          <Field
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            defaultValue={failure?.values?.email}
            error={failure?.fieldErrors?.email}
            hint="One email when it is back in stock, nothing else"
            required
          />
        )}
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? "Saving..." : "Notify Me"}
        </button>
      </Form>
    </section>
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
