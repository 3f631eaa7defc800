import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which products a page being rendered shows, so the guest page cache can drop just the pages
 * showing a product whose stock changed. Recorded where a product leaves the domain layer for a
 * page or a client (Product.toPublic), so no loader can forget it.
 */
const productsShown = new AsyncLocalStorage<Set<string>>();

/** Runs `render` while recording the products it shows into `shown`. */
export function recordProductsShown<T>(shown: Set<string>, render: () => T): T {
  return productsShown.run(shown, render);
}

export function noteProductShown(productId: string): void {
  productsShown.getStore()?.add(productId);
}
