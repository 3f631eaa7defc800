/**
 * The comparison (docs/product.md, "Compare"): up to four watches side by side, kept in a cookie
 * so that no account is needed. Plain data, so the pages' browser bundle can use it too.
 */
export const MAX_COMPARED_WATCHES = 4;

/** The cookie that holds the compared watches' ids, in the order they were added. */
export const COMPARE_COOKIE = "waqt.compare";
export const COMPARE_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The id of the one form on every page that the Compare buttons submit (app/root.tsx). */
export const COMPARE_FORM_ID = "compare-form";

export const COMPARISON_FULL = `You can compare up to ${MAX_COMPARED_WATCHES} watches. Remove one on the compare page first.`;
