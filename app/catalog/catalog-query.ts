import {
  CATEGORIES,
  PRICE_MAX,
  PRODUCT_SORTS,
  SEARCH_MAX_LENGTH,
  type Category,
  type ProductSort,
} from "../../server/modules/catalog/catalog-values.shared";
import {
  CASE_SIZE_VALUES,
  MOVEMENTS,
  WATCH_FEATURES,
  WATER_RESISTANCE_MINIMUMS,
} from "../../server/modules/catalog/watch-specs.shared";
import { pageFromUrl, searchFromUrl } from "../lib/list-pages";

/**
 * The filters of the catalogue page (docs/product.md, "Filters"), as the API names them: lists
 * of the options ticked, the price range and the least water resistance.
 */
export type CatalogFilterView = {
  brand: string[];
  minPrice: number | null;
  maxPrice: number | null;
  movement: string[];
  caseSize: string[];
  strap: string[];
  dial: string[];
  waterResistance: number | null;
  feature: string[];
};

/** The filters that are lists of options, in the order the page shows them. */
export const LIST_FILTERS = ["brand", "movement", "caseSize", "strap", "dial", "feature"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

/** At most this many options of one filter are read from a URL (the API's limit). */
const FILTER_VALUES_MAX = 20;

/** A list filter's values from the URL: known ones only where the list is fixed, free text cut short. */
function listFromUrl(params: URLSearchParams, name: string, allowed?: readonly string[], maxLength = 50): string[] {
  const values = params
    .getAll(name)
    .map((value) => value.replaceAll(String.fromCharCode(0), "").trim())
    .filter((value) => value !== "" && value.length <= maxLength && (!allowed || allowed.includes(value)));
  return [...new Set(values)].slice(0, FILTER_VALUES_MAX);
}

function priceFromUrl(params: URLSearchParams, name: string): number | null {
  const text = params.get(name)?.trim() ?? "";
  const value = Number(text);
  return text !== "" && Number.isFinite(value) && value >= 0 && value <= PRICE_MAX ? value : null;
}

export function readCatalogFilters(params: URLSearchParams): CatalogFilterView {
  const water = Number(params.get("waterResistance"));
  return {
    brand: listFromUrl(params, "brand", undefined, 100),
    minPrice: priceFromUrl(params, "minPrice"),
    maxPrice: priceFromUrl(params, "maxPrice"),
    movement: listFromUrl(params, "movement", MOVEMENTS),
    caseSize: listFromUrl(params, "caseSize", CASE_SIZE_VALUES),
    strap: listFromUrl(params, "strap"),
    dial: listFromUrl(params, "dial", undefined, 30),
    waterResistance: (WATER_RESISTANCE_MINIMUMS as readonly number[]).includes(water) ? water : null,
    feature: listFromUrl(params, "feature", WATCH_FEATURES),
  };
}

/** How many options are chosen: a page with more than one is not for search engines. */
export function chosenFilterCount(view: CatalogView): number {
  const { filters } = view;
  return (
    (view.category ? 1 : 0) +
    LIST_FILTERS.reduce((count, name) => count + filters[name].length, 0) +
    (filters.minPrice !== null || filters.maxPrice !== null ? 1 : 0) +
    (filters.waterResistance !== null ? 1 : 0)
  );
}

/** The catalogue's view as it lives in the URL, so every view can be linked, shared and reloaded. */
export type CatalogView = {
  search: string;
  category: Category | "";
  /** "" is the default: newest first, or best match when searching. */
  sort: ProductSort | "";
  page: number;
  filters: CatalogFilterView;
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
    filters: readCatalogFilters(params),
  };
}

/** The address of a view: defaults are left out, so each view has one canonical URL. */
export function catalogHref(view: CatalogView): string {
  const params = new URLSearchParams();
  if (view.search) params.set("search", view.search);
  if (view.category) params.set("category", view.category);
  const { filters } = view;
  for (const name of LIST_FILTERS) for (const value of filters[name]) params.append(name, value);
  if (filters.minPrice !== null) params.set("minPrice", String(filters.minPrice));
  if (filters.maxPrice !== null) params.set("maxPrice", String(filters.maxPrice));
  if (filters.waterResistance !== null) params.set("waterResistance", String(filters.waterResistance));
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
