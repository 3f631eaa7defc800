/**
 * The arithmetic and rules of cart lines. Plain code with no imports, shared by the cart
 * service, checkout and the pages (whose browser bundle must not pull in server code).
 */
export type CartLine = {
  product: { _id: string; name: string; price: number; imageUrl: string; stock: number };
  quantity: number;
};

/** price × quantity in paisa (whole numbers), so that no rupee amount is rounded twice. */
function linePaisa(line: CartLine): number {
  return Math.round(line.product.price * 100) * line.quantity;
}

export function lineTotal(line: CartLine): number {
  return linePaisa(line) / 100;
}

export function cartTotal(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + linePaisa(line), 0) / 100;
}

/** What the shopper must fix on a line before checking out, or null. */
export function lineProblem(line: CartLine): string | null {
  if (line.product.stock === 0) return "Out of stock: please remove it from your cart";
  if (line.quantity > line.product.stock) return `Only ${line.product.stock} left in stock: please lower the quantity`;
  return null;
}
