import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which products a page being rendered shows, so the guest page cache can drop just the pages
 * showing a product whose stock changed. The catalogue announces each product where it leaves
 * the domain for a page or a client (server/modules/catalog/product-shown-listeners.ts), so no loader can
 * forget it; the request being rendered is found through async context.
 */
const productsShown = new AsyncLocalStorage<Set<string>>();

/** Runs `render` while recording the products it shows into `shown`. */
export function recordProductsShown<T>(shown: Set<string>, render: () => T): T {
  return productsShown.run(shown, render);
}

export function noteProductShown(productId: string): void {
  productsShown.getStore()?.add(productId);
}
