import * as yup from "yup";
import { PAGE_MAX, PAGE_SIZE_MAX } from "./list-limits.shared";
import { integer, object, type ShapeOf } from "./shapes";

/**
 * Pieces shared by the list queries (products, users, orders) and the numbers of the forms.
 * Existing clients always send every parameter, so an empty value means "no filter" or the
 * default.
 */
export const emptyToUndefined = (value: unknown, original: unknown) =>
  original === "" || original === null ? undefined : value;

/** Blank text and null mean "not given": clients send every field, forms send empty inputs. */
export const blankToUndefined = (value: unknown, original: unknown) =>
  original === null || (typeof original === "string" && original.trim() === "") ? undefined : value;

export { PAGE_MAX, PAGE_SIZE_MAX };

export const pageParam = () =>
  yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Page must be a number")
    .integer("Page must be a whole number")
    .min(1, "Page must be at least 1")
    .max(PAGE_MAX, `Page must be at most ${PAGE_MAX}`)
    .default(1);

/** 1 to 1000 a page (admin lists ask for 1000: docs/product.md, "Limits"), or to a list's own `max`. */
export const limitParam = (defaultLimit: number, max: number = PAGE_SIZE_MAX) =>
  yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Limit must be a number")
    .integer("Limit must be a whole number")
    .min(1, `Limit must be between 1 and ${max}`)
    .max(max, `Limit must be between 1 and ${max}`)
    .default(defaultLimit);

/** Where a page of a list sits in the whole list: the one pagination of every list. */
export const paginationShape = object({
  page: integer({ minimum: 1 }),
  limit: integer({ minimum: 1 }),
  total: integer({ minimum: 0, description: "Every match, counted exactly" }),
  totalPages: integer({ minimum: 0 }),
});
export type Pagination = ShapeOf<typeof paginationShape>;

export function paginationOf(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}
