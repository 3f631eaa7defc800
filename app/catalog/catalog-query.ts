import {
  CATEGORIES,
  PRODUCT_SORTS,
  SEARCH_MAX_LENGTH,
  type Category,
  type ProductSort,
} from "../../server/modules/catalog/catalog-values.shared";
import { pageFromUrl, searchFromUrl } from "../lib/list-pages";

/** The catalogue's view as it lives in the URL, so every view can be linked, shared and reloaded. */
export type CatalogView = {
  search: string;
  category: Category | "";
  /** "" is the default: newest first, or best match when searching. */
  sort: ProductSort | "";
  page: number;
};

export const CATALOG_PAGE_SIZE = 12;

/** Reads the view from the URL. A page is forgiving: an unknown value falls back to the default. */
export function readCatalogView(params: URLSearchParams): CatalogView {
  const category = params.get("category") ?? "";
  const sort = params.get("sort") ?? "";
  return {
    search: searchFromUrl(params, SEARCH_MAX_LENGTH),
    category: (CATEGORIES as string[]).includes(category) ? (category as Category) : "",
    sort: (PRODUCT_SORTS as readonly string[]).includes(sort) ? (sort as ProductSort) : "",
    page: pageFromUrl(params),
  };
}

/** The address of a view: defaults are left out, so each view has one canonical URL. */
export function catalogHref(view: CatalogView): string {
  const params = new URLSearchParams();
  if (view.search) params.set("search", view.search);
  if (view.category) params.set("category", view.category);
  if (view.sort) params.set("sort", view.sort);
  if (view.page > 1) params.set("page", String(view.page));
  const query = params.toString();
  return query ? `/products?${query}` : "/products";
}

export const SORT_LABELS: Record<ProductSort, string> = {
  "-createdAt": "Newest First",
  createdAt: "Oldest First",
  price: "Price Low to High",
  "-price": "Price High to Low",
  name: "Name A to Z",
  "-name": "Name Z to A",
};
