/**
 * Every product that leaves the catalogue for a page or a client (Product.toPublic) is announced
 * here. The guest page cache listens, to know which pages show which products, so that a change
 * of one product's stock drops only those pages; the catalogue knows nothing of the cache.
 */
type ProductShownListener = (productId: string) => void;

const listeners = new Set<ProductShownListener>();

/** Listens until the returned function is called. */
export function onProductShown(listener: ProductShownListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceProductShown(productId: string): void {
  for (const listener of listeners) listener(productId);
}
