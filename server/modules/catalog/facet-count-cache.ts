import type { FacetCounts } from "./catalog-filters";

/**
 * The filters' counts of recent views, kept in this app server's memory, by the statement that
 * counts them (its SQL and bindings: the same view gives the same statement).
 *
 * Correctness as for the search result cache (search-cache.ts): an entry carries the search
 * version (migration 21) read in the same statement as its counts, and answers only while the
 * version read now is still the same. Every write that can change a count or an option's label
 * writes a new version (migrations 20261123000021 and 20261126000060: a product added or removed,
 * its brand, category, price or a filtered specification written, a brand renamed), so a kept
 * count is always what counting again would give; stock is not counted, so checkout leaves it.
 *
 * Size: at most `maxEntries` views (each some kilobytes); the least recently used go first.
 */
export type KeptFacetCounts = { version: string; counts: FacetCounts };

export class FacetCountCache {
  private readonly entries = new Map<string, KeptFacetCounts>();

  constructor(private readonly maxEntries = 500) {}

  get(key: string): KeptFacetCounts | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Least recently used order: a hit moves the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: KeptFacetCounts): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const [oldKey] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldKey);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
