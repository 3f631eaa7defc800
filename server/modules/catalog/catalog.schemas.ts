import * as yup from "yup";
import { emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { CATEGORIES, PRICE_MAX, PRODUCT_SORTS, SEARCH_MAX_LENGTH, STOCK_MAX } from "./catalog-values.shared";

/**
 * GET /api/v1/products: strict, an unknown value is a 400 (the pages forgive instead, see
 * app/catalog/catalog-query.ts). Without a sort, a search is ranked by relevance.
 */
export const productListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(10),
  search: yup
    .string()
    .trim()
    .max(SEARCH_MAX_LENGTH, `Search must be at most ${SEARCH_MAX_LENGTH} characters`)
    .default(""),
  category: yup
    .string()
    .transform(emptyToUndefined)
    .oneOf([...CATEGORIES, undefined], "Category must be Men or Women"),
  sort: yup
    .string()
    .transform(emptyToUndefined)
    .oneOf([...PRODUCT_SORTS, undefined], `Sort must be one of ${PRODUCT_SORTS.join(", ")}`),
});
export type ProductListQuery = yup.InferType<typeof productListQuerySchema>;

/** Two decimals at most, judged on the number the user meant (0.1 + 0.2 style noise ignored). */
const hasAtMostTwoDecimals = (value: number | undefined) =>
  value === undefined || Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** http(s) addresses, or a path of this site under /images (the demo images live there). */
export function isProductImageUrl(value: string): boolean {
  if (/^\/images\/[A-Za-z0-9._~\-/]+$/.test(value) && !value.includes("..")) return true;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

export const imageUrlField = () =>
  yup
    .string()
    .trim()
    .max(500, "Image URL must be at most 500 characters")
    .test(
      "image-url",
      "Image URL must be a web address (http:// or https://) or a site path under /images",
      (value) => !value || isProductImageUrl(value),
    );

/**
 * A product as an admin writes it, from the product form or POST/PUT /api/v1/products. The
 * Image URL may be empty when a photo is given or kept: the operation checks that the product
 * has one of the two (the API, which takes photos by another call, requires the URL:
 * server/http/api/catalog.api.ts).
 */
export const productSchema = yup.object({
  name: yup.string().trim().required("Name is required").max(200, "Name must be at most 200 characters"),
  description: yup
    .string()
    .trim()
    .required("Description is required")
    .max(5000, "Description must be at most 5000 characters"),
  price: yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Price must be a number")
    .required("Price is required")
    .min(0, "Price cannot be negative")
    .max(PRICE_MAX, "Price is too large")
    .test("two-decimals", "Price can have at most two decimals", hasAtMostTwoDecimals),
  category: yup
    .string()
    .transform(emptyToUndefined)
    .required("Category is required")
    .oneOf(CATEGORIES, "Category must be Men or Women"),
  imageUrl: imageUrlField().default(""),
  stock: yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Stock must be a whole number")
    .required("Stock is required")
    .integer("Stock must be a whole number")
    .min(0, "Stock cannot be negative")
    .max(STOCK_MAX, `Stock must be at most ${STOCK_MAX}`),
  // Absent (or empty on the form): 2 for a new product, unchanged for one edited.
  reorderLevel: yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Reorder level must be a whole number")
    .integer("Reorder level must be a whole number")
    .min(0, "Reorder level cannot be negative")
    .max(STOCK_MAX, `Reorder level must be at most ${STOCK_MAX}`),
  brand: yup.string().trim().max(100, "Brand must be at most 100 characters").default(""),
});
export type ProductInput = yup.InferType<typeof productSchema>;

/** "Notify me when it's back" (docs/product.md, "Back in stock"): the address to write to. */
export const notifyMeSchema = yup.object({
  email: yup
    .string()
    .trim()
    .lowercase()
    .required("Email is required")
    .max(254, "Email must be at most 254 characters")
    .email("Please enter a valid email address"),
});

/** A signed-in customer cancels one of their waiting alerts (the profile page). */
export const cancelStockAlertSchema = yup.object({
  alertId: yup.string().trim().required("Alert is required").max(100, "Alert not found"),
});

/** The unsubscribe link's token, as the page posts it back. */
export const unsubscribeSchema = yup.object({
  token: yup.string().trim().required("This unsubscribe link is invalid").max(200, "This unsubscribe link is invalid"),
});
