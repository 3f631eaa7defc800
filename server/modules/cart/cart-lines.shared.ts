import type { CartLine } from "./cart.shape";
import { fromPaisa, toPaisa } from "../shared/money.shared";

export type { CartLine };

/**
 * The arithmetic and rules of cart lines, shared by the cart service, checkout and the pages.
 */
function linePaisa(line: CartLine): number {
  return toPaisa(line.product.price) * line.quantity;
}

export function lineTotal(line: CartLine): number {
  return fromPaisa(linePaisa(line));
}

export function cartTotal(lines: CartLine[]): number {
  return fromPaisa(lines.reduce((sum, line) => sum + linePaisa(line), 0));
}

/** What the shopper must fix on a line before checking out, or null. */
export function lineProblem(line: CartLine): string | null {
  if (line.product.stock === 0) return "Out of stock: please remove it from your cart";
  if (line.quantity > line.product.stock) return `Only ${line.product.stock} left in stock: please lower the quantity`;
  return null;
}
