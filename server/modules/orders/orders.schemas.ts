import * as yup from "yup";
import { ORDER_STATUSES } from "./order-values";

const requiredText = (label: string, max: number) =>
  yup.string().trim().required(`${label} is required`).max(max, `${label} must be at most ${max} characters`);

/** The shipping address of checkout (page and API): every field required. */
export const shippingAddressSchema = yup.object({
  street: requiredText("Street address", 200),
  city: requiredText("City", 100),
  state: requiredText("State / Province", 100),
  zipCode: requiredText("ZIP / Postal code", 20).matches(/^[A-Za-z0-9 -]+$/, "ZIP / Postal code may contain letters, digits, spaces and dashes only"),
  country: requiredText("Country", 100),
});

export const placeOrderSchema = yup.object({
  address: shippingAddressSchema.required("Address is required"),
  /** The checkout form's key (or the API's Idempotency-Key): the same key never makes two orders. */
  idempotencyKey: yup.string().trim().max(100, "Idempotency key must be at most 100 characters").default(""),
});

export const orderStatusSchema = yup.object({
  status: yup.string().required("Status is required").oneOf(ORDER_STATUSES, `Status must be one of ${ORDER_STATUSES.join(", ")}`),
});

const emptyToUndefined = (value: unknown, original: unknown) => (original === "" ? undefined : value);

export const orderListQuerySchema = yup.object({
  page: yup.number().transform(emptyToUndefined).typeError("Page must be a number").integer("Page must be a whole number").min(1, "Page must be at least 1").default(1),
  limit: yup
    .number()
    .transform(emptyToUndefined)
    .typeError("Limit must be a number")
    .integer("Limit must be a whole number")
    .min(1, "Limit must be between 1 and 1000")
    .max(1000, "Limit must be between 1 and 1000")
    .default(1000),
  status: yup.string().transform(emptyToUndefined).oneOf([...ORDER_STATUSES, undefined], `Status must be one of ${ORDER_STATUSES.join(", ")}`),
});
