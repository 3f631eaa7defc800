/**
 * Money is added up in whole paisa (1 rupee = 100 paisa), never in floating rupees, so no amount
 * is rounded twice. Prices are numeric(12, 2) in the database; these turn them into paisa and back.
 */

/**
 * `amount × numerator / denominator`, rounded half up to a whole paisa: a percentage of a
 * subtotal, or a share of a discount (docs/product.md, "Discount codes" and "Returns"). Exact
 * for any amounts the store holds (BigInt: the product may pass 2^53). Non-negative integers only.
 */
export function proportionHalfUp(amount: number, numerator: number, denominator: number): number {
  if (denominator <= 0) return 0;
  const product = BigInt(amount) * BigInt(numerator);
  const whole = BigInt(denominator);
  return Number((product * 2n + whole) / (whole * 2n));
}

export function toPaisa(rupees: number): number {
  return Math.round(rupees * 100);
}

export function fromPaisa(paisa: number): number {
  return paisa / 100;
}

const wholeRupees = new Intl.NumberFormat("en-PK", { maximumFractionDigits: 0 });
const withPaisa = new Intl.NumberFormat("en-PK", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Every price the store shows or writes goes through here: "Rs. 12,500" (paisa only when there are any). */
export function formatRupees(amount: number): string {
  const hasPaisa = Math.round(amount * 100) % 100 !== 0;
  return `Rs. ${(hasPaisa ? withPaisa : wholeRupees).format(amount)}`;
}
