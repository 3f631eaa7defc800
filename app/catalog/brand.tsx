import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { NotFoundScreen } from "../components/not-found-screen";
import { RouteErrorScreen } from "../components/route-error-screen";
import { requestContext } from "../context";
import { pageFromUrl } from "../lib/list-pages";
import { pageMeta, siteOf } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { CATALOG_PAGE_SIZE } from "./catalog-query";
import { ProductCard, cardProductOf } from "./product-card";
import type { Route } from "./+types/brand";

/** A brand's page (docs/product.md, "Brands"): its short text and its watches, newest first. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const brand = await foundOr404(services.catalog.getBrand(params.slug));
  const page = pageFromUrl(new URL(request.url).searchParams);
  const { products, pagination } = await services.catalog.listProducts({
    brand: [brand.slug],
    page,
    limit: CATALOG_PAGE_SIZE,
  });
  return { brand, products: products.map(cardProductOf), pagination };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteOf(matches);
  if (!data) return pageMeta(site, { title: "Brand not found", noindex: true });
  const { brand, pagination } = data;
  return pageMeta(site, {
    title: `${brand.name} Watches`,
    description: (brand.description || `${brand.name} watches in Pakistan, with cash on delivery.`).slice(0, 300),
    path: `/brands/${brand.slug}${pagination.page > 1 ? `?page=${pagination.page}` : ""}`,
  });
};

export default function BrandPage({ loaderData }: Route.ComponentProps) {
  const { brand, products, pagination } = loaderData;
  const href = (page: number) => (page > 1 ? `/brands/${brand.slug}?page=${page}` : `/brands/${brand.slug}`);
  return (
    <section>
      <header className="page-header">
        <h1>{`${brand.name} Watches`}</h1>
        <p className="muted">{`${pagination.total} ${pagination.total === 1 ? "watch" : "watches"}`}</p>
      </header>
      {brand.description ? <p className="brand-text">{brand.description}</p> : null}
      {products.length === 0 ? (
        <div className="empty-state">
          <p>No products found</p>
          <Link to="/products">Show all watches</Link>
        </div>
      ) : (
        <ul className="product-grid">
          {products.map((product, index) => (
            <ProductCard key={product._id} product={product} eagerImage={index < 4} />
          ))}
        </ul>
      )}
      {pagination.totalPages > 1 ? (
        <nav className="pagination" aria-label="Pages">
          {pagination.page > 1 ? (
            <Link to={href(pagination.page - 1)} rel="prev">
              Previous
            </Link>
          ) : null}
          <span aria-current="page">{`Page ${pagination.page} of ${pagination.totalPages}`}</span>
          {pagination.page < pagination.totalPages ? (
            <Link to={href(pagination.page + 1)} rel="next">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/** An unknown brand: "Brand not found" with status 404; anything else, the error screen. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFoundScreen
        message="Brand not found"
        explanation="We do not sell watches of this brand, or the address is mistyped."
        link={{ to: "/products", label: "Back to Products" }}
      />
    );
  }
  return <RouteErrorScreen error={error} />;
}
