/**
 * The catalogue's fixed values. Plain data with no imports, so the pages' browser bundle can use
 * them too without pulling in the server's code.
 */
export type Category = "Men" | "Women";
export const CATEGORIES: Category[] = ["Men", "Women"];

/** The sorts of the catalogue, as the API names them (docs/api.md): a field, "-" for descending. */
export const PRODUCT_SORTS = ["-createdAt", "createdAt", "price", "-price", "name", "-name"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];
export const DEFAULT_PRODUCT_SORT: ProductSort = "-createdAt";

export const SEARCH_MAX_LENGTH = 100;
export const PRICE_MAX = 9_999_999_999.99; // numeric(12, 2)
export const STOCK_MAX = 1_000_000;
/** A packed watch's most grams (30 kg: a courier's parcel, not a typo); the CHECK of migration 20261126000080 too. */
export const WEIGHT_GRAMS_MAX = 30_000;

/** Texts of the stock alerts (docs/product.md, "Back in stock"), shown by the pages as they are. */
export const IN_STOCK_NOW = "This watch is in stock: you can order it now";
export const UNSUBSCRIBE_LINK_INVALID = "This unsubscribe link is invalid";
