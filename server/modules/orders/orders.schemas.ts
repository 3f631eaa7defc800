import * as yup from "yup";
import { discountCodeField } from "../discounts/discounts.schemas";
import { emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import {
  PHONE_INPUT_MAX,
  PHONE_MESSAGE,
  isStoredPakistaniMobile,
  normalisePakistaniMobile,
} from "../shared/phone.shared";
import {
  COURIERS,
  COURIER_MESSAGE,
  DESK_STATUS_FILTERS,
  ORDER_SEARCH_MAX,
  ORDER_STATUSES,
  TRACKING_NUMBER_MAX,
  TRACKING_NUMBER_MESSAGE,
  TRACKING_NUMBER_PATTERN,
} from "./order-values.shared";

// Trimmed only when it is text: yup's .trim() calls value.trim() on whatever arrives, so a JSON
// object or array in an address field crashed validation (500). Now it is a 400 naming the field.
const requiredText = (label: string, max: number) =>
  yup
    .string()
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError(`${label} must be text`)
    .required(`${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Blank text and null mean "not given": clients send every field, forms send empty inputs. */
const blankToUndefined = (value: unknown, original: unknown) =>
  original === null || (typeof original === "string" && original.trim() === "") ? undefined : value;

/** The shipping address of checkout (page and API): every field required. */
export const shippingAddressSchema = yup
  .object({
    street: requiredText("Street address", 200),
    city: requiredText("City", 100),
    state: requiredText("State / Province", 100),
    // excludeEmptyString: an empty ZIP is reported once, as required, not also as bad characters.
    zipCode: requiredText("ZIP / Postal code", 20).matches(/^[A-Za-z0-9 -]+$/, {
      message: "ZIP / Postal code may contain letters, digits, spaces and dashes only",
      excludeEmptyString: true,
    }),
    country: requiredText("Country", 100),
  })
  // An address sent as one string or a list: said in words, not yup's "must be a `object` type".
  .typeError("Address must have a street, city, state / province, ZIP / postal code and country");

/**
 * A Pakistani mobile number in one of the accepted forms, given as its stored form
 * (docs/product.md, "Orders"); blank means not given.
 */
const mobileNumber = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform((value) =>
      typeof value === "string" && value.length <= PHONE_INPUT_MAX ? (normalisePakistaniMobile(value) ?? value) : value,
    )
    .typeError(PHONE_MESSAGE)
    .test("pakistani-mobile", PHONE_MESSAGE, (value) => value === undefined || isStoredPakistaniMobile(value));

/** POST /api/v1/orders: the phone is optional (without it the profile's is used, if it is a mobile number). */
export const placeOrderSchema = yup.object({
  address: shippingAddressSchema.required("Address is required"),
  phone: mobileNumber(),
  /** The checkout form's key (or the API's Idempotency-Key): the same key never makes two orders. */
  idempotencyKey: yup.string().trim().max(100, "Idempotency key must be at most 100 characters").default(""),
  /** Optional, in any case (docs/product.md, "Discount codes"). */
  discountCode: discountCodeField(),
});

/** The checkout page asks for the mobile number: a courier takes no parcel without it. */
export const checkoutFormSchema = placeOrderSchema.shape({
  phone: mobileNumber().required(PHONE_MESSAGE),
});

/** Checkout's Apply: what the cart comes to with this code (blank: without one). */
export const checkoutQuoteSchema = yup.object({ discountCode: discountCodeField() });

const STATUS_MESSAGE = `Status must be one of ${ORDER_STATUSES.join(", ")}`;

// A status that is not text (a JSON object, or ?status= given twice) is made text, so that it
// fails oneOf with the same message as an unknown status, instead of yup's "must be a `string` type".
const statusAsText = (value: unknown) => (value == null || typeof value === "string" ? value : String(value));

const shippedOnly = (label: string) =>
  function (this: yup.TestContext, value: unknown) {
    return value === undefined || this.parent.status === "Shipped"
      ? true
      : this.createError({ message: `${label} can only be given with the status Shipped` });
  };

const courier = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform(statusAsText)
    .oneOf([...COURIERS, undefined], COURIER_MESSAGE)
    .test("shipped-only", "", shippedOnly("A courier"));

const trackingNumber = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError(TRACKING_NUMBER_MESSAGE)
    .max(TRACKING_NUMBER_MAX, TRACKING_NUMBER_MESSAGE)
    .matches(TRACKING_NUMBER_PATTERN, TRACKING_NUMBER_MESSAGE)
    .test("shipped-only", "", shippedOnly("A tracking number"));

/**
 * PATCH /api/v1/orders/{id}/status: the status, and with Shipped optionally the courier and the
 * tracking number (docs/product.md, "Shipping an order"); a status-only body still works.
 */
export const orderStatusSchema = yup.object({
  status: yup.string().transform(statusAsText).required("Status is required").oneOf(ORDER_STATUSES, STATUS_MESSAGE),
  courier: courier(),
  trackingNumber: trackingNumber(),
});

/**
 * The admin pages' status change: Shipped needs the courier and the tracking number, and an
 * order not confirmed by phone is shipped only when the admin said so a second time.
 */
export const orderStatusFormSchema = orderStatusSchema.shape({
  courier: courier().when("status", {
    is: "Shipped",
    then: (schema) => schema.required("Choose the courier"),
  }),
  trackingNumber: trackingNumber().when("status", {
    is: "Shipped",
    then: (schema) => schema.required("Tracking number is required"),
  }),
  shipUnconfirmed: yup.boolean().transform(blankToUndefined).typeError("Answer yes or no").default(false),
});

export const orderListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(1000),
  status: yup
    .string()
    .transform(emptyToUndefined)
    .transform(statusAsText)
    .oneOf([...ORDER_STATUSES, undefined], STATUS_MESSAGE),
});

/** A calendar day written YYYY-MM-DD (years 1900 to 9999). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const calendarDay = (label: string) =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform(statusAsText)
    .test(
      "calendar-day",
      `${label} must be a date written YYYY-MM-DD`,
      (value) => value === undefined || isCalendarDay(value),
    );

/**
 * The admin order list, its slips and its export (docs/product.md, "Finding and exporting
 * orders"): a status (or the Pending orders not yet confirmed), a search term, and a range of
 * days in Pakistan's time, both ends included.
 */
export const orderDeskQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(50),
  status: yup
    .string()
    .transform(emptyToUndefined)
    .transform(statusAsText)
    .oneOf([...DESK_STATUS_FILTERS, undefined], `Status must be one of ${DESK_STATUS_FILTERS.join(", ")}`),
  search: yup
    .string()
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError("Search must be text")
    .max(ORDER_SEARCH_MAX, `Search must be at most ${ORDER_SEARCH_MAX} characters`)
    .default(""),
  from: calendarDay("From"),
  to: calendarDay("To").test("not-before-from", "To must not be before From", function (value) {
    const from = this.parent.from;
    return value === undefined || typeof from !== "string" || !isCalendarDay(from) || value >= from;
  }),
});
export type OrderDeskQuery = yup.InferType<typeof orderDeskQuerySchema>;
