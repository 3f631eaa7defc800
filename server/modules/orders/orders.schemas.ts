import * as yup from "yup";
import { emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { ORDER_STATUSES } from "./order-values.shared";

// Trimmed only when it is text: yup's .trim() calls value.trim() on whatever arrives, so a JSON
// object or array in an address field crashed validation (500). Now it is a 400 naming the field.
const requiredText = (label: string, max: number) =>
  yup
    .string()
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError(`${label} must be text`)
    .required(`${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

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

export const placeOrderSchema = yup.object({
  address: shippingAddressSchema.required("Address is required"),
  /** The checkout form's key (or the API's Idempotency-Key): the same key never makes two orders. */
  idempotencyKey: yup.string().trim().max(100, "Idempotency key must be at most 100 characters").default(""),
});

const STATUS_MESSAGE = `Status must be one of ${ORDER_STATUSES.join(", ")}`;

// A status that is not text (a JSON object, or ?status= given twice) is made text, so that it
// fails oneOf with the same message as an unknown status, instead of yup's "must be a `string` type".
const statusAsText = (value: unknown) => (value == null || typeof value === "string" ? value : String(value));

export const orderStatusSchema = yup.object({
  status: yup.string().transform(statusAsText).required("Status is required").oneOf(ORDER_STATUSES, STATUS_MESSAGE),
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
