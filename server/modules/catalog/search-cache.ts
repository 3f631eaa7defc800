/**
 * The first results of recent searches, kept in this app server's memory: for each search term,
 * category and sort, the exact number of matches and the ids of the first matches in order
 * (never the products themselves, which are read fresh with every page, stock included).
 *
 * Correctness: an entry carries the search version (migration 21) read in the same statement as
 * its matches, and it answers a page only when the version read in the same statement as that
 * page's products is still the same. Every change that could change a search's matches or their
 * order writes a new version in its own transaction, so an entry is used only for a snapshot of
 * the catalogue in which its result is still exactly what the search would find, on every app
 * server at once; nothing waits for a notice, and there is nothing to turn off when notices are
 * lost.
 *
 * Size: at most `maxIds` ids in all (a few MB); the least recently used entries go first.
 */
export type CachedSearch = {
  /** The search version (migration 21) the result was found in. */
  version: string;
  total: number;
  /** The ids of the first matches, in the search's order (at most CACHED_SEARCH_RESULTS). */
  ids: string[];
};

/**
 * How many of the first matches an entry keeps: pages within them are answered from it (the
 * first 25 pages of 12, 3 of 100), deeper pages are searched each time.
 */
export const CACHED_SEARCH_RESULTS = 300;

export class SearchCache {
  private readonly entries = new Map<string, CachedSearch>();
  private ids = 0;

  constructor(private readonly maxIds = 100_000) {}

  static key(search: string, category: string | undefined, sort: string | undefined): string {
    // The term as typed: matching ignores case through PostgreSQL's lower(), whose idea of case
    // need not be JavaScript's, so two spellings are two entries rather than a guess.
    return JSON.stringify([search, category ?? "", sort ?? ""]);
  }

  get(key: string): CachedSearch | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Least recently used order: a hit moves the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedSearch): void {
    this.delete(key);
    this.entries.set(key, entry);
    this.ids += entry.ids.length;
    for (const [oldKey] of this.entries) {
      if (this.ids <= this.maxIds) break;
      this.delete(oldKey);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.ids -= entry.ids.length;
  }

  clear(): void {
    this.entries.clear();
    this.ids = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
