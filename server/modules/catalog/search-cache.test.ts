import { describe, expect, it } from "vitest";
import { SearchCache } from "./search-cache";

const entry = (ids: number) => ({ version: "v", total: ids, ids: Array.from({ length: ids }, (_, i) => `id-${i}`) });

describe("SearchCache", () => {
  it("keys the term as typed, the category and the sort apart", () => {
    const keys = new Set([
      SearchCache.key("Omega", undefined, undefined),
      SearchCache.key("omega", undefined, undefined),
      SearchCache.key("omega", "Men", undefined),
      SearchCache.key("omega", undefined, "price"),
      SearchCache.key("omega,Men", undefined, undefined),
    ]);
    expect(keys.size).toBe(5);
  });

  it("keeps at most its number of ids, dropping the least recently used entries first", () => {
    const cache = new SearchCache(10);
    cache.set("a", entry(4));
    cache.set("b", entry(4));
    expect(cache.get("a")).toBeDefined();
    cache.set("c", entry(4));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.ids).toHaveLength(4);
    expect(cache.get("c")?.ids).toHaveLength(4);
    cache.set("c", entry(2));
    cache.set("d", entry(4));
    expect(cache.size).toBe(3);
    cache.delete("a");
    cache.set("e", entry(4));
    expect(cache.get("c")).toBeDefined();
    expect(cache.get("d")).toBeDefined();
  });
});
