import type { ReactNode } from "react";
import { Form, useLocation } from "react-router";

/**
 * Add to Cart, as a plain form posted to the cart. A guest is sent to log in and comes back to
 * this page (nothing is added without a second press); a signed-in shopper stays here
 * (`then="stay"`) or goes to the cart (`then="cart"`).
 */
export function AddToCartForm({
  productId,
  productName,
  inStock,
  then,
  children,
}: {
  productId: string;
  productName: string;
  inStock: boolean;
  then: "stay" | "cart";
  /** A quantity input; without it one unit is added. */
  children?: ReactNode;
}) {
  const location = useLocation();
  return (
    <Form method="post" action="/cart" className="add-to-cart" preventScrollReset>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <input type="hidden" name="then" value={then} />
      {children ?? <input type="hidden" name="quantity" value="1" />}
      {/* Named as it reads, then which watch: "Add to Cart Seiko Presage" (several sit in a grid). */}
      <button type="submit" className="button" disabled={!inStock}>
        Add to Cart<span className="visually-hidden">{` ${productName}`}</span>
      </button>
    </Form>
  );
}
