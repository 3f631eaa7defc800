export type PageItem = { kind: "page"; page: number; current: boolean } | { kind: "ellipsis"; key: string };

/** Pages either side of the current one that are always shown (docs/product.md, "Products"). */
export const PAGE_WINDOW = 2;

/**
 * The page links of a list: always the first and the last page and those within two of the
 * current one; where a gap begins (at distance three) an ellipsis stands for the pages left out.
 */
export function paginationItems(currentPage: number, totalPages: number): PageItem[] {
  const items: PageItem[] = [];
  for (let page = 1; page <= totalPages; page++) {
    const distance = Math.abs(page - currentPage);
    if (page === 1 || page === totalPages || distance <= PAGE_WINDOW) {
      items.push({ kind: "page", page, current: page === currentPage });
    } else if (distance === PAGE_WINDOW + 1) {
      items.push({ kind: "ellipsis", key: page < currentPage ? "before" : "after" });
    }
  }
  return items;
}
