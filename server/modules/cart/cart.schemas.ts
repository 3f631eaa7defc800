import * as yup from "yup";

export const CART_LINE_MAX_QUANTITY = 1000;

const productId = yup.string().trim().required("Product is required").max(64, "Product not found");

const quantity = yup
  .number()
  .transform((value, original) => (original === "" ? undefined : value))
  .typeError("Quantity must be a number")
  .required("Quantity is required")
  .integer("Quantity must be a whole number")
  .min(1, "Quantity must be at least 1")
  .max(CART_LINE_MAX_QUANTITY, `Quantity must be at most ${CART_LINE_MAX_QUANTITY}`);

/** POST /cart (adds to the line) and PUT /cart (sets the line), and the pages' cart forms. */
export const cartLineSchema = yup.object({ productId, quantity });
export type CartLineInput = yup.InferType<typeof cartLineSchema>;
