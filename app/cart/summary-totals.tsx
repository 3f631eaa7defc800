import { formatRupees } from "../lib/money";

/** Subtotal, Shipping "Free" (always, across Pakistan) and Total, for the cart and checkout. */
export function SummaryTotals({ total }: { total: number }) {
  return (
    <dl className="details">
      <dt>Subtotal</dt>
      <dd>{formatRupees(total)}</dd>
      <dt>Shipping</dt>
      <dd>Free</dd>
      <dt>Total</dt>
      <dd className="cart__total">{formatRupees(total)}</dd>
    </dl>
  );
}
