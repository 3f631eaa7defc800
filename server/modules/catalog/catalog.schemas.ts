import * as yup from "yup";
import { hasAtMostDecimals } from "../shared/decimals.shared";
import { blankToUndefined, emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import {
  CATEGORIES,
  PRICE_MAX,
  PRODUCT_SORTS,
  SEARCH_MAX_LENGTH,
  STOCK_MAX,
  WEIGHT_GRAMS_MAX,
} from "./catalog-values.shared";
import {
  CASE_SIZE_VALUES,
  MOVEMENTS,
  SPEC_DEFINITIONS,
  WATCH_FEATURES,
  type SpecDefinition,
  type SpecKey,
  type WatchSpecs,
} from "./watch-specs.shared";

/** How many values one repeatable filter takes (a page offers far fewer). */
const FILTER_VALUES_MAX = 20;

/**
 * A filter that may be given several times (`brand=Casio&brand=Seiko`): a list, empty values
 * dropped; once is a list of one.
 */
function repeatable(label: string, item: yup.StringSchema<string | undefined>) {
  return yup
    .array()
    .transform((_value: unknown, original: unknown) => {
      const values = original === undefined || original === null ? [] : Array.isArray(original) ? original : [original];
      return values.filter((value) => value !== "");
    })
    .of(item.defined())
    .max(FILTER_VALUES_MAX, `${label} can be given at most ${FILTER_VALUES_MAX} times`)
    .default([]);
}

const priceParam = (label: string) =>
  yup
    .number()
    .transform(emptyToUndefined)
    .typeError(`${label} must be a number`)
    .min(0, `${label} cannot be negative`)
    .max(PRICE_MAX, `${label} is too large`);

/**
 * The catalogue's filters (docs/api.md, "Filters"), for GET /api/v1/products as query parameters:
 * strict, like the rest of the list's query.
 */
export const catalogFilterFields = {
  brand: repeatable("Brand", yup.string().trim().max(100, "Brand must be at most 100 characters")),
  minPrice: priceParam("Minimum price"),
  maxPrice: priceParam("Maximum price"),
  movement: repeatable("Movement", yup.string().oneOf(MOVEMENTS, `Movement must be one of ${MOVEMENTS.join(", ")}`)),
  caseSize: repeatable(
    "Case size",
    yup.string().oneOf(CASE_SIZE_VALUES, `Case size must be one of ${CASE_SIZE_VALUES.join(", ")}`),
  ),
  strap: repeatable("Strap", yup.string().trim().max(50, "Strap must be at most 50 characters")),
  dial: repeatable("Dial", yup.string().trim().max(30, "Dial must be at most 30 characters")),
  waterResistance: yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Water resistance must be a whole number of metres")
    .integer("Water resistance must be a whole number of metres")
    .min(0, "Water resistance cannot be negative")
    .max(12000, "Water resistance must be at most 12000 metres"),
  feature: repeatable(
    "Feature",
    yup.string().oneOf(WATCH_FEATURES, `Feature must be one of ${WATCH_FEATURES.join(", ")}`),
  ),
};

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
  ...catalogFilterFields,
  facets: yup.boolean().transform(emptyToUndefined).typeError("Facets must be 1 or 0").default(false),
});
export type ProductListQuery = yup.InferType<typeof productListQuerySchema>;

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

/** One specification's rule, from its definition (watch-specs.shared.ts); blank or null is "not filled in". */
function specField(definition: SpecDefinition) {
  const { label } = definition;
  switch (definition.kind) {
    case "text":
      return yup
        .string()
        .trim()
        .transform(blankToUndefined)
        .max(definition.max, `${label} must be at most ${definition.max} characters`)
        .default(null)
        .nullable();
    case "choice":
      return yup
        .string()
        .transform(blankToUndefined)
        .nullable()
        .oneOf([...definition.values, null], `${label} must be one of ${definition.values.join(", ")}`)
        .default(null);
    case "number": {
      const { min, max, unit, decimals } = definition;
      const range = `${label} must be between ${min} and ${max} ${unit}`;
      return yup
        .number()
        .transform(blankToUndefined)
        .typeError(`${label} must be a number`)
        .min(min, range)
        .max(max, range)
        .test(
          "decimals",
          decimals === 0 ? `${label} must be a whole number` : `${label} can have at most one decimal`,
          (value) => value === null || value === undefined || hasAtMostDecimals(value, decimals),
        )
        .default(null)
        .nullable();
    }
    case "yes-no":
      return yup.boolean().transform(blankToUndefined).typeError(`${label} must be yes or no`).default(null).nullable();
    case "list":
      return yup
        .array()
        .of(yup.string().defined())
        .transform(blankToUndefined)
        .typeError(`${label} must be a list`)
        .test("known", `${label} must be among ${definition.values.join(", ")}`, (values) =>
          (values ?? []).every((value) => (definition.values as readonly string[]).includes(value)),
        )
        .transform((values: string[] | undefined) => (values ? [...new Set(values)] : values))
        .default([]);
  }
}

/** The specifications of a watch (docs/product.md, "Specifications"), each optional. */
export const specsSchema = yup.object(
  Object.fromEntries(
    (Object.entries(SPEC_DEFINITIONS) as [SpecKey, SpecDefinition][]).map(([key, definition]) => [
      key,
      specField(definition),
    ]),
  ),
) as unknown as yup.ObjectSchema<WatchSpecs>;

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
    .test(
      "two-decimals",
      "Price can have at most two decimals",
      (value) => value === undefined || hasAtMostDecimals(value, 2),
    ),
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
  // Grams, packed. Empty on the form or null: none (the booking uses the store's default a piece);
  // absent from an API call: unchanged for one edited, none for a new product.
  weightGrams: yup
    .number()
    .transform((value: unknown, original: unknown) =>
      typeof original === "string" && original.trim() === "" ? null : value,
    )
    .typeError("Weight must be a whole number of grams")
    .nullable()
    .integer("Weight must be a whole number of grams")
    .min(1, "Weight must be at least 1 gram")
    .max(WEIGHT_GRAMS_MAX, `Weight must be at most ${WEIGHT_GRAMS_MAX} grams`),
  brand: yup.string().trim().max(100, "Brand must be at most 100 characters").default(""),
  // Left out (an API client that knows no specifications), the product's are kept: catalog.service.ts.
  specs: specsSchema.default(undefined).optional(),
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
