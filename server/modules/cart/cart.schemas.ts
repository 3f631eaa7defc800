import * as yup from "yup";
import { emptyToUndefined } from "../shared/list-query";

export const CART_LINE_MAX_QUANTITY = 1000;

// Trimmed only when it is text: yup's .trim() calls value.trim() on whatever arrives, so a JSON
// object or array as productId crashed validation (500). Now it is a 400 naming the field.
// No length limit here: an over-long id is a malformed id, which the service answers with
// 404 "Product not found" (docs/api.md), where a max() here answered 400.
const productId = yup
  .string()
  .transform((value) => (typeof value === "string" ? value.trim() : value))
  .typeError("Product id must be text")
  .required("Product is required");

const quantity = yup
  .number()
  .transform(emptyToUndefined)
  .typeError("Quantity must be a number")
  .required("Quantity is required")
  .integer("Quantity must be a whole number")
  .min(1, "Quantity must be at least 1")
  .max(CART_LINE_MAX_QUANTITY, `Quantity must be at most ${CART_LINE_MAX_QUANTITY}`);

/** POST /cart (adds to the line) and PUT /cart (sets the line), and the pages' cart forms. */
export const cartLineSchema = yup.object({ productId, quantity });
export type CartLineInput = yup.InferType<typeof cartLineSchema>;
