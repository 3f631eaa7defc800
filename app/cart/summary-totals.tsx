import { formatRupees } from "../lib/money";

/**
 * Subtotal, the discount of a code when there is one ("Discount (FIRST10)" −Rs. X), Shipping
 * "Free" (always, across Pakistan) and Total, for the cart, checkout and orders (docs/product.md,
 * "Discount codes"). The discount comes off the goods only.
 */
export function SummaryTotals({
  total,
  subtotal = total,
  discount = null,
}: {
  total: number;
  subtotal?: number;
  discount?: { code: string; amount: number } | null;
}) {
  return (
    <dl className="details summary-totals">
      <dt>Subtotal</dt>
      <dd>{formatRupees(subtotal)}</dd>
      {discount ? (
        <>
          <dt>{`Discount (${discount.code})`}</dt>
          <dd className="discount-amount">{`−${formatRupees(discount.amount)}`}</dd>
        </>
      ) : null}
      <dt>Shipping</dt>
      <dd>Free</dd>
      <dt>Total</dt>
      <dd className="cart__total">{formatRupees(total)}</dd>
    </dl>
  );
}
