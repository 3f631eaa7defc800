import * as yup from "yup";
import { discountCodeField } from "../modules/discounts/discounts.schemas";
import { PAYMENT_METHOD_NAMES } from "../providers/payment-methods/payment-methods.shared";
import { blankToUndefined } from "../modules/shared/list-query";
import {
  PHONE_INPUT_MAX,
  PHONE_MESSAGE,
  isStoredPakistaniMobile,
  normalisePakistaniMobile,
} from "../modules/shared/phone.shared";
import { MESSAGE_LANGUAGES } from "../modules/orders/order-values.shared";

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

/**
 * Placing an order, from the checkout page or POST /api/v1/orders. The phone is optional: without
 * it the profile's is used, if it is a mobile number (the checkout page requires it as its own
 * rule: app/orders/checkout.tsx).
 */
export const placeOrderSchema = yup.object({
  address: shippingAddressSchema.required("Address is required"),
  phone: mobileNumber(),
  /** The checkout form's key (or the API's Idempotency-Key): the same key never makes two orders. */
  idempotencyKey: yup.string().trim().max(100, "Idempotency key must be at most 100 characters").default(""),
  /** Optional, in any case (docs/product.md, "Discount codes"). */
  discountCode: discountCodeField(),
  /** How the order is paid, by the method's name; without it, cash on delivery (the first method offered). */
  paymentMethod: yup
    .string()
    .transform(blankToUndefined)
    .typeError(`Payment method must be one of: ${PAYMENT_METHOD_NAMES.join(", ")}`)
    .oneOf([...PAYMENT_METHOD_NAMES], `Payment method must be one of: ${PAYMENT_METHOD_NAMES.join(", ")}`),
  /** The language of the order's messages (and the account's from now on); without it, the account's, else Urdu for a mobile number. */
  language: yup
    .string()
    .transform(blankToUndefined)
    .oneOf([...MESSAGE_LANGUAGES], "Messages must be in ur (Urdu) or en (English)")
    .typeError("Messages must be in ur (Urdu) or en (English)"),
});

/** Checkout's Apply: what the cart comes to with this code (blank: without one). */
export const checkoutQuoteSchema = yup.object({ discountCode: discountCodeField() });
