import * as yup from "yup";

/**
 * Pieces shared by the list queries of the API (products, users, orders) and the numbers of
 * the forms. Existing clients always send every parameter, so an empty value means "no filter"
 * or the default.
 */
export const emptyToUndefined = (value: unknown, original: unknown) =>
  original === "" || original === null ? undefined : value;

export const PAGE_MAX = 1_000_000;

export const pageParam = () =>
  yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Page must be a number")
    .integer("Page must be a whole number")
    .min(1, "Page must be at least 1")
    .max(PAGE_MAX, `Page must be at most ${PAGE_MAX}`)
    .default(1);

/** 1 to 1000 a page (admin lists ask for 1000, SPEC section 9). */
export const limitParam = (defaultLimit: number) =>
  yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Limit must be a number")
    .integer("Limit must be a whole number")
    .min(1, "Limit must be between 1 and 1000")
    .max(1000, "Limit must be between 1 and 1000")
    .default(defaultLimit);
