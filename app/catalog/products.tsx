import { Form, Link, redirect, useSubmit } from "react-router";
import { PRODUCT_SORTS } from "../../server/modules/catalog/catalog-values.shared";
import { Drawer } from "../components/drawer";
import { requestContext } from "../context";
import { pageMeta, siteOf } from "../lib/meta";
import {
  CATALOG_PAGE_SIZE,
  SORT_LABELS,
  catalogHref,
  chosenFilterCount,
  readCatalogView,
  type CatalogView,
} from "./catalog-query";
import { CatalogFilterFields } from "./catalog-filter-fields";
import { paginationItems } from "./pagination";
import { ProductCard, cardProductOf } from "./product-card";
import { useFieldsFollowView } from "./use-fields-follow-view";
import type { Route } from "./+types/products";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const view = readCatalogView(new URL(request.url).searchParams);
  const { filters } = view;
  const { products, pagination, facets } = await services.catalog.listProducts({
    search: view.search,
    category: view.category,
    sort: view.sort,
    page: view.page,
    limit: CATALOG_PAGE_SIZE,
    ...filters,
    minPrice: filters.minPrice ?? undefined,
    maxPrice: filters.maxPrice ?? undefined,
    waterResistance: filters.waterResistance ?? undefined,
    facets: true,
  });
  // A page past the end (a shared link after products were deleted) shows the last page.
  if (products.length === 0 && pagination.totalPages > 0 && view.page > pagination.totalPages) {
    throw redirect(catalogHref({ ...view, page: pagination.totalPages }));
  }
  return { view, products: products.map(cardProductOf), pagination, facets: facets! };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const view = data?.view;
  const collection = view?.category ? `${view.category}'s Watches` : "All Watches";
  const title = view?.search ? `Search results for "${view.search}"` : collection;
  return pageMeta(siteOf(matches), {
    title,
    description: `Browse ${view?.category ? `${view.category.toLowerCase()}'s` : "men's and women's"} premium authentic watches. Free delivery across Pakistan and cash on delivery.`,
    // Search results are not pages of their own for search engines; collections are, and so is
    // one filter's page. More than one option chosen points to the collection (one per combination
    // would be far too many pages).
    path:
      view && !view.search && chosenFilterCount(view) === 1
        ? catalogHref(view)
        : view?.category
          ? `/products?category=${view.category}`
          : "/products",
    noindex: Boolean(view?.search) || (view ? chosenFilterCount(view) > 1 : false),
  });
};

export default function Products({ loaderData }: Route.ComponentProps) {
  const { view, products, pagination, facets } = loaderData;
  const submit = useSubmit();
  const form = useFieldsFollowView(catalogHref({ ...view, page: 1 }));
  const heading = view.category ? `${view.category}'s Watches` : "All Watches";
  return (
    <section>
      <header className="page-header">
        <h1>{heading}</h1>
        <p className="muted">{`${pagination.total} ${pagination.total === 1 ? "watch" : "watches"}`}</p>
      </header>
      {/* A GET form: the filters live in the URL, and any change starts again at page 1. On a phone
          the category and sort fold into a drawer (a <details>, open on wider screens). */}
      <Form
        ref={form}
        method="get"
        action="/products"
        className="catalog-filters"
        role="search"
        onChange={(event) => {
          // With JavaScript a new category, sort or option applies at once (the URL follows);
          // typing a search or a price waits for Search or Apply.
          const target = event.target;
          if (
            target instanceof HTMLSelectElement ||
            (target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio"))
          ) {
            submit(event.currentTarget);
          }
        }}
      >
        <div className="field catalog-filters__search">
          <label htmlFor="catalog-search">Search watches</label>
          <div className="search-row">
            <input
              id="catalog-search"
              type="search"
              name="search"
              defaultValue={view.search}
              maxLength={100}
              placeholder="Name, brand or description"
            />
            <button type="submit" className="button">
              Search
            </button>
          </div>
        </div>
        <Drawer className="filter-panel" summary={filterSummary(view)}>
          <div className="filter-panel__fields">
            <div className="field">
              <label htmlFor="catalog-category">Category</label>
              <select id="catalog-category" name="category" defaultValue={view.category}>
                <option value="">All Categories</option>
                <option value="Men">Men</option>
                <option value="Women">Women</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="catalog-sort">Sort by</label>
              <select id="catalog-sort" name="sort" defaultValue={view.sort}>
                {view.search ? <option value="">Best Match</option> : null}
                {PRODUCT_SORTS.map((sort) => (
                  <option key={sort} value={sort === "-createdAt" && !view.search ? "" : sort}>
                    {SORT_LABELS[sort]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <CatalogFilterFields view={view} facets={facets} />
        </Drawer>
      </Form>
      {products.length === 0 ? (
        <div className="empty-state">
          <p>No products found</p>
          {view.search || chosenFilterCount(view) > 0 ? <Link to="/products">Show all watches</Link> : null}
        </div>
      ) : (
        <ul className="product-grid">
          {products.map((product, index) => (
            // The first row is above the fold on most screens: load it at once, the rest lazily.
            <ProductCard key={product._id} product={product} eagerImage={index < 4} />
          ))}
        </ul>
      )}
      <CatalogPagination view={view} totalPages={pagination.totalPages} />
    </section>
  );
}

/** The drawer's summary on a phone says how many options are chosen, so a closed drawer still tells. */
function filterSummary(view: CatalogView): string {
  const chosen = chosenFilterCount(view) - (view.category ? 1 : 0);
  return chosen > 0 ? `Filter and sort (${chosen} chosen)` : "Filter and sort";
}

function CatalogPagination({ view, totalPages }: { view: CatalogView; totalPages: number }) {
  if (totalPages <= 1) return null;
  const href = (page: number) => catalogHref({ ...view, page });
  return (
    <nav className="pagination" aria-label="Pages">
      {view.page > 1 ? (
        <Link to={href(view.page - 1)} rel="prev">
          Previous
        </Link>
      ) : (
        <span className="pagination__disabled" aria-disabled="true">
          Previous
        </span>
      )}
      <ol className="pagination__pages">
        {paginationItems(view.page, totalPages).map((item) =>
          item.kind === "ellipsis" ? (
            <li key={item.key} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item.page}>
              {item.current ? (
                <span className="pagination__current" aria-current="page">
                  {item.page}
                </span>
              ) : (
                <Link to={href(item.page)} aria-label={`Page ${item.page}`}>
                  {item.page}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {view.page < totalPages ? (
        <Link to={href(view.page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span className="pagination__disabled" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
