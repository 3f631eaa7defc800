import * as yup from "yup";
import { hasAtMostDecimals } from "../shared/decimals.shared";
import { PRICE_MAX } from "../catalog/catalog-values.shared";
import {
  CODE_NOT_VALID,
  DISCOUNT_CODE_PATTERN,
  DISCOUNT_TYPES,
  PERCENT_MAX,
  PERCENT_MIN,
  normaliseDiscountCode,
} from "./discount-values.shared";

/** Blank text and null mean "not given": clients send every field, forms send empty inputs. */
const blankToUndefined = (value: unknown, original: unknown) =>
  original === null || (typeof original === "string" && original.trim() === "") ? undefined : value;

const asCode = (value: unknown) => (typeof value === "string" ? normaliseDiscountCode(value) : value);

/**
 * The code a shopper types at checkout (docs/product.md, "Discount codes"): any case, spaces
 * around it ignored, blank for none. One that cannot be a code is refused like an unknown one.
 */
export const discountCodeField = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform(asCode)
    .typeError(CODE_NOT_VALID)
    .matches(DISCOUNT_CODE_PATTERN, CODE_NOT_VALID);

/** ISO 8601 with a zone: "2026-12-01T05:00:00Z" or "2026-12-01T10:00:00+05:00". */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

function isoInstant(value: string): string | null {
  if (!ISO_INSTANT.test(value)) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  return year >= 1900 && year <= 9999 ? new Date(time).toISOString() : null;
}

/** A moment given by the API: ISO 8601 with its zone; blank or null for none. Kept as UTC ISO text. */
const apiInstant = (label: string) =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform((value) => (typeof value === "string" ? (isoInstant(value.trim()) ?? `invalid:${value}`) : value))
    .typeError(`${label} must be a date and time such as 2026-12-01T10:00:00+05:00`)
    .test(
      "instant",
      `${label} must be a date and time such as 2026-12-01T10:00:00+05:00`,
      (value) => value === undefined || !value.startsWith("invalid:"),
    );

const endsAfterStart = (schema: yup.StringSchema<string | undefined>) =>
  schema.test("after-start", "Ends must be after Starts", function (value) {
    const start = this.parent.startsAt;
    if (value === undefined || typeof start !== "string" || start.startsWith("invalid:")) return true;
    return Date.parse(value) > Date.parse(start);
  });

const booleanField = (label: string, fallback: boolean) =>
  yup.boolean().transform(blankToUndefined).typeError(`${label} must be true or false`).default(fallback);

/**
 * A discount code as an admin writes it (docs/product.md, "Discount codes"), from POST and PUT
 * /api/v1/discounts and from the admin form, whose ticked boxes and times typed in Pakistan its
 * page turns into these fields (app/admin/discount-form.tsx). `usedCount` is read-only: sent, it
 * is ignored.
 */
export const discountInputSchema = yup.object({
  code: yup
    .string()
    .transform(asCode)
    .typeError("Code must be text")
    .required("Code is required")
    .matches(DISCOUNT_CODE_PATTERN, "Code must be 3 to 20 letters and digits"),
  type: yup
    .string()
    .transform(blankToUndefined)
    .required("Type is required")
    .oneOf(DISCOUNT_TYPES, "Type must be percent or fixed"),
  value: yup
    .number()
    .transform(blankToUndefined)
    .typeError("Value must be a number")
    .required("Value is required")
    .test(
      "two-decimals",
      "Value can have at most two decimals",
      (value) => value === undefined || hasAtMostDecimals(value, 2),
    )
    .test("range", "", function (value) {
      if (value === undefined) return true;
      if (this.parent.type === "percent" && (value < PERCENT_MIN || value > PERCENT_MAX)) {
        return this.createError({ message: `A percentage must be between ${PERCENT_MIN} and ${PERCENT_MAX}` });
      }
      if (value <= 0) return this.createError({ message: "An amount must be more than 0" });
      if (value > PRICE_MAX) return this.createError({ message: "Value is too large" });
      return true;
    }),
  firstOrderOnly: booleanField("First order only", false),
  active: booleanField("Active", true),
  startsAt: apiInstant("Starts"),
  endsAt: endsAfterStart(apiInstant("Ends")),
  maxUses: yup
    .number()
    .transform(blankToUndefined)
    .typeError("Maximum uses must be a whole number")
    .integer("Maximum uses must be a whole number")
    .min(1, "Maximum uses must be at least 1")
    .max(1_000_000_000, "Maximum uses must be at most 1000000000"),
});
export type DiscountInput = yup.InferType<typeof discountInputSchema>;
