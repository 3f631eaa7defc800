import { describe, expect, it } from "vitest";
import { paginationItems, type PageItem } from "./pagination";

/** "1 … 4 [5] 6 …" style, so each case reads like the bar a shopper sees. */
function render(items: PageItem[]): string {
  return items
    .map((item) => (item.kind === "ellipsis" ? "…" : item.current ? `[${item.page}]` : String(item.page)))
    .join(" ");
}

describe("paginationItems", () => {
  it.each([
    [1, 0, ""],
    [1, 1, "[1]"],
    [1, 2, "[1] 2"],
    [1, 5, "[1] 2 3 … 5"],
    [3, 5, "1 2 [3] 4 5"],
    [1, 10, "[1] 2 3 … 10"],
    [4, 10, "1 2 3 [4] 5 6 … 10"],
    [5, 10, "1 … 3 4 [5] 6 7 … 10"],
    [6, 10, "1 … 4 5 [6] 7 8 … 10"],
    [10, 10, "1 … 8 9 [10]"],
    [7, 10, "1 … 5 6 [7] 8 9 10"],
    [50, 100, "1 … 48 49 [50] 51 52 … 100"],
  ])("page %i of %i: %s", (current, total, expected) => {
    expect(render(paginationItems(current, total))).toBe(expected);
  });

  it("shows an ellipsis only where at least one page is left out", () => {
    for (let total = 1; total <= 30; total++) {
      for (let current = 1; current <= total; current++) {
        const items = paginationItems(current, total);
        const pages = items.flatMap((item) => (item.kind === "page" ? [item.page] : []));
        // Every page is either shown or stands behind an ellipsis between its neighbours.
        items.forEach((item, index) => {
          if (item.kind !== "ellipsis") return;
          const before = items[index - 1] as { page: number };
          const after = items[index + 1] as { page: number };
          expect(after.page - before.page).toBeGreaterThan(1);
        });
        expect(pages).toContain(1);
        expect(pages).toContain(total);
        expect(pages.filter((page) => Math.abs(page - current) <= 2)).toHaveLength(
          Math.min(total, current + 2) - Math.max(1, current - 2) + 1,
        );
      }
    }
  });
});
