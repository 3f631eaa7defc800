/**
 * The discount codes' fixed values and messages (docs/product.md, "Discount codes"). Pure data
 * and functions: the checkout and admin pages use them too.
 */
export const DISCOUNT_TYPES = ["percent", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** 3 to 20 letters and digits, kept in capitals. */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9]{3,20}$/;
export const DISCOUNT_CODE_MAX = 20;
export const PERCENT_MIN = 1;
export const PERCENT_MAX = 90;

/** The code the home page advertises; it exists in every store (migration 20261123000016). */
export const FIRST_ORDER_CODE = "FIRST10";

export const CODE_NOT_VALID = "This discount code is not valid";
export const FIRST_ORDER_ONLY = "This code is only for your first order";
export const CODE_TAKEN = "A discount code with this name already exists";
export const TOO_MANY_CODES = "Too many discount codes tried. Please wait a few minutes and try again.";

/** A code as the shopper typed it, as the store keeps it: spaces around it dropped, capitals. */
export function normaliseDiscountCode(value: string): string {
  return value.trim().toUpperCase();
}
