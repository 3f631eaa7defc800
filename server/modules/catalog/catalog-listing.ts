import type { Database } from "../../db/database";
import { paginationOf, type Pagination } from "../shared/list-query";
import { containsPattern } from "../shared/search";
import { validateGivenFields } from "../shared/validation";
import { DEFAULT_PRODUCT_SORT, type ProductSort } from "./catalog-values.shared";
import { productListQuerySchema } from "./catalog.schemas";
import { Product, type PublicProduct } from "./product.model";
import { CACHED_SEARCH_RESULTS, SearchCache, type CachedSearch } from "./search-cache";
import { FacetCountCache } from "./facet-count-cache";
import { FacetIndex, type FacetRows, type PageRequest } from "./facet-index";
import { ONE_WORD, SORT_ORDER, catalogueSizeSql, inOrder, orderBySort, relevanceKey, seekTo } from "./catalog-sql";
import {
  FACETS,
  facetQueries,
  filterConditions,
  hasFilters,
  whereAll,
  type CatalogFilters,
  type Condition,
  type Facet,
  type FacetCounts,
} from "./catalog-filters";
import { brandSlug } from "./brands.shared";
import {
  CASE_SIZE_BANDS,
  MOVEMENTS,
  WATCH_FEATURES,
  WATER_RESISTANCE_MINIMUMS,
  type CaseSizeBand,
} from "./watch-specs.shared";

export type ProductList = { products: PublicProduct[]; pagination: Pagination; facets?: FacetCounts };

/**
 * The catalogue's reading side: a page of products with its exact total, by sort, search and
 * filters, and the filters' counts. It keeps the search results and counts it may answer from
 * again (search-cache.ts, facet-count-cache.ts), each checked against the search version.
 */
export class CatalogListing {
  private readonly searchCache: SearchCache | null;
  private readonly facetCountCache = new FacetCountCache();
  private readonly facetIndex: FacetIndex;
  /**
   * The searches under way, by cache key: the same search asked meanwhile (ten visitors after a
   * change, say) waits for that one instead of reading every match again, then checks its
   * version like a kept result's, so it never answers from before a change it could have seen.
   */
  private readonly searching = new Map<string, Promise<CachedSearch>>();
  /** productsAtVersion's column list, written once (below). */
  private readonly publicColumnsAsProperties: string;

  /** `searchCache: null` searches every time (the bench's cost of a term never seen before). */
  constructor(
    private readonly db: Database,
    options: { searchCache?: SearchCache | null } = {},
  ) {
    this.searchCache = options.searchCache === undefined ? new SearchCache() : options.searchCache;
    this.facetIndex = new FacetIndex(db);
    this.publicColumnsAsProperties = publicColumnsAsProperties(db);
  }

  /**
   * Reads the filters' index now (facet-index.ts), for a server starting or a test that needs it
   * current; otherwise the first view that finds it behind the catalogue starts the reading.
   */
  refreshFacetIndex(): Promise<void> {
    return this.facetIndex.readCurrent();
  }

  /**
   * One page of the catalogue, and how many products match in all (exactly: docs/api.md).
   * Without a search the page is read from its sort's index and the total from the counts of
   * migration 19. A search matches name, brand and description: whole words through the
   * text-search index, any part of a word through the trigram index of migration 20. Without an
   * explicit sort a search puts matches in the name first, then in the brand, then the rest,
   * each newest first.
   */
  async listProducts(input: unknown): Promise<ProductList> {
    const query = validateGivenFields(productListQuerySchema, input);
    const { page, limit, search, category, facets } = query;
    const sort = query.sort as ProductSort | undefined;
    const filters: CatalogFilters = {
      ...query,
      brand: query.brand.flatMap((brand) => brandSlug(brand) ?? []),
      caseSize: query.caseSize as CaseSizeBand[],
    };
    const base = baseConditions(search, category);
    // A filtered page in an order the index keeps comes from memory with its total and counts;
    // the rest (and any view while the index is behind) from SQL.
    const kept = hasFilters(filters) ? keptOrder(sort, search, page, limit) : null;
    if (kept) {
      const answered = await this.pageFromIndex(filters, { search, category }, kept, facets);
      if (answered) return answered;
    }
    // Without a filter the list keeps its own fast paths (the sort's index, the kept counts, the
    // search cache); the counts, when asked for, come alongside.
    const [list, counts] = await Promise.all([
      hasFilters(filters)
        ? this.filteredProducts(filters, base, { search, sort, page, limit })
        : this.unfilteredProducts({ page, limit, search, category, sort }),
      facets ? this.facetCounts(filters, base, { search, category }) : undefined,
    ]);
    return counts ? { ...list, facets: counts } : list;
  }

  /**
   * A filtered page, its total and its counts from the index's one pass (facet-view.ts); then
   * only the page's products are read, by id, with the search version in the same statement: the
   * answer stands only if that is the version the index was read at (else null, and the index is
   * read again).
   */
  private async pageFromIndex(
    filters: CatalogFilters,
    scope: { search: string; category?: string },
    kept: PageRequest,
    facets: boolean,
  ): Promise<ProductList | null> {
    const view = await this.facetIndex.view(filters, scope, kept);
    if (!view) return null;
    const shown = await this.productsAtVersion(view.ids);
    if (shown?.version !== view.version) {
      this.facetIndex.behind(shown?.version);
      return null;
    }
    const page = kept.offset / kept.limit + 1;
    const list = { products: shown.products, pagination: paginationOf(page, kept.limit, view.total) };
    return facets ? { ...list, facets: facetOptions(view.counts) } : list;
  }

  /**
   * A page of the products that pass the filters, and how many pass, in one statement: their ids
   * and sort keys gathered once, then counted and the page taken (as findMatches does for a
   * search); only the page's products are read whole.
   */
  private async filteredProducts(
    filters: CatalogFilters,
    base: Condition[],
    options: { search: string; sort?: ProductSort; page: number; limit: number },
  ): Promise<ProductList> {
    const { search, sort, page, limit } = options;
    const where = whereAll(filterConditions(filters), base);
    const ranked = !sort && search;
    const key = ranked ? relevanceKey.replaceAll(":search", "?") : SORT_ORDER[sort ?? DEFAULT_PRODUCT_SORT].expression;
    const direction = ranked ? "" : SORT_ORDER[sort ?? DEFAULT_PRODUCT_SORT].order;
    const order = ranked ? "key DESC, created_at DESC, id DESC" : `key ${direction}, id ${direction}`;
    const { rows } = await this.db.raw<{ rows: { total: number; ids: string[] }[] }>(
      `WITH matches AS MATERIALIZED (SELECT id, created_at, ${key} AS key FROM products WHERE ${where.sql})
       SELECT (SELECT count(*) FROM matches)::int AS total,
              ARRAY(SELECT id FROM matches ORDER BY ${order} LIMIT ? OFFSET ?) AS ids`,
      [...(ranked ? [search, search] : []), ...where.bindings, limit, (page - 1) * limit],
    );
    const { total, ids } = rows[0]!;
    const products = ids.length > 0 ? await Product.query(this.db).findByIds(ids) : [];
    return { products: inOrder(ids, products), pagination: paginationOf(page, limit, total) };
  }

  /**
   * Each facet's options with their counts (every other filter applied: catalog-filters.ts);
   * options no product has are left out, the rest in their list's order. Counted in memory by the
   * index when it holds the catalogue as it is now (facet-index.ts); else in SQL, in one round trip.
   */
  private async facetCounts(
    filters: CatalogFilters,
    base: Condition[],
    scope: { search: string; category?: string },
  ): Promise<FacetCounts> {
    const view = await this.facetIndex.view(filters, scope, null);
    if (view) {
      const version = view.versionChecked ? view.version : await this.searchVersion();
      if (version === view.version) return facetOptions(view.counts);
      this.facetIndex.behind(version);
    }
    return this.facetCountsInSql(filters, base);
  }

  private async searchVersion(): Promise<string> {
    const { rows } = await this.db.raw<{ rows: { version: string }[] }>("SELECT version FROM search_version");
    return rows[0]!.version;
  }

  private async facetCountsInSql(filters: CatalogFilters, base: Condition[]): Promise<FacetCounts> {
    const queries = facetQueries(filterConditions(filters), base);
    const sql = `SELECT ${FACETS.map((facet) => `(SELECT coalesce(json_agg(f), '[]') FROM (${queries[facet].sql}) f) AS "${facet}"`).join(", ")},
                        (SELECT version FROM search_version) AS version`;
    const bindings = FACETS.flatMap((facet) => queries[facet].bindings);
    // Counting reads every product the other filters let through (all of them for the whole
    // catalogue); counts kept from the same catalogue are used instead (facet-count-cache.ts).
    const key = JSON.stringify([sql, bindings]);
    const kept = this.facetCountCache.get(key);
    if (kept) {
      const { rows } = await this.db.raw<{ rows: { version: string }[] }>("SELECT version FROM search_version");
      if (rows[0]!.version === kept.version) return kept.counts;
      this.facetCountCache.delete(key);
    }
    const { rows } = await this.db.raw<{ rows: (Partial<FacetRows> & { version: string })[] }>(sql, bindings);
    const { version, ...facetRows } = rows[0]!;
    const counts = facetOptions(facetRows);
    this.facetCountCache.set(key, { version, counts });
    return counts;
  }

  private async unfilteredProducts(options: {
    page: number;
    limit: number;
    search: string;
    category?: string;
    sort?: ProductSort;
  }): Promise<ProductList> {
    const { page, limit, search, category, sort } = options;
    const offset = (page - 1) * limit;
    if (search) return this.searchProducts({ search, category, sort: sort as ProductSort | undefined, page, limit });
    const order = (sort as ProductSort | undefined) ?? DEFAULT_PRODUCT_SORT;
    const query = Product.query(this.db);
    if (category) query.where("category", category);
    if (offset > 0) seekTo(query, order, offset, category);
    orderBySort(query, order);
    // The total rides along with the page, one round trip for both; a page past the end has no
    // row to carry it, and asks for it on its own.
    const rows = (await query
      .select(
        "products.*",
        this.db.raw(`(${catalogueSizeSql(category)}) AS catalogue_size`, category ? [category] : []),
      )
      .limit(limit)) as (Product & { catalogueSize?: number | string | null })[];
    const total = rows.length > 0 ? Number(rows[0]!.catalogueSize ?? 0) : await this.catalogueSize(category);
    return {
      products: rows.map((product) => product.toPublic()),
      pagination: paginationOf(page, limit, total),
    };
  }

  /**
   * A search visits its matches once: their ids and sort keys are gathered (a bitmap scan of
   * the two search indexes), then counted and the page taken from that small set; only the
   * page's products are read whole. A broad term matches tens of thousands of products, and
   * counting and ranking them in two queries read them twice.
   *
   * The count and the first CACHED_SEARCH_RESULTS ids in order are kept (search-cache.ts) with
   * the search version they were found in; the same search again reads only its page's products
   * and the version, in one statement, and is answered from the cache only if the version is
   * unchanged (else it searches again). Deeper pages are searched every time.
   */
  private async searchProducts(options: {
    search: string;
    category?: string;
    sort?: ProductSort;
    page: number;
    limit: number;
  }): Promise<ProductList> {
    const { search, category, sort, page, limit } = options;
    const offset = (page - 1) * limit;
    const cache = offset + limit <= CACHED_SEARCH_RESULTS ? this.searchCache : null;
    const cacheKey = SearchCache.key(search, category, sort);
    // Kept, or being found by another request: either is checked against the version read now.
    // (No await between looking for a search under way and starting one: two would start.)
    let cached = cache?.get(cacheKey);
    const underWay = cache && !cached ? this.searching.get(cacheKey) : undefined;
    if (underWay) cached = await underWay.catch(() => undefined);
    if (cached) {
      const shown = await this.productsAtVersion(cached.ids.slice(offset, offset + limit));
      if (shown?.version === cached.version) {
        return { products: shown.products, pagination: paginationOf(page, limit, cached.total) };
      }
      cache!.delete(cacheKey);
    }
    let found: CachedSearch;
    if (cache) {
      const searching = this.findMatches({ search, category, sort, limit: CACHED_SEARCH_RESULTS, offset: 0 });
      this.searching.set(cacheKey, searching);
      try {
        found = await searching;
      } finally {
        if (this.searching.get(cacheKey) === searching) this.searching.delete(cacheKey);
      }
      cache.set(cacheKey, found);
    } else {
      found = await this.findMatches({ search, category, sort, limit, offset });
    }
    const ids = cache ? found.ids.slice(offset, offset + limit) : found.ids;
    const products = ids.length > 0 ? await Product.query(this.db).findByIds(ids) : [];
    return { products: inOrder(ids, products), pagination: paginationOf(page, limit, found.total) };
  }

  /**
   * A search's matches, counted, and the ids of `limit` of them from `offset` in the search's
   * order, with the search version read in the same statement (so from the same snapshot).
   */
  private async findMatches(options: {
    search: string;
    category?: string;
    sort?: ProductSort;
    limit: number;
    offset: number;
  }): Promise<CachedSearch> {
    const { search, category, sort, limit, offset } = options;
    const { key, order } = sort
      ? { key: SORT_ORDER[sort].expression, order: `key ${SORT_ORDER[sort].order}, id ${SORT_ORDER[sort].order}` }
      : { key: relevanceKey, order: "key DESC, created_at DESC, id DESC" };
    // The substring test first: PostgreSQL checks each candidate row in the order written, and
    // most matches of a term of several words have it as written, so their search_vector is
    // never read.
    const { rows } = await this.db.raw<{ rows: CachedSearch[] }>(
      `WITH matches AS MATERIALIZED (
         SELECT id, created_at, ${key} AS key FROM products
          WHERE (search_text LIKE lower(:pattern)
                 ${ONE_WORD.test(search) ? "" : "OR search_vector @@ plainto_tsquery('simple', :search)"})
                ${category ? "AND category = :category" : ""}
       )
       SELECT (SELECT count(*) FROM matches)::int AS total,
              ARRAY(SELECT id FROM matches ORDER BY ${order} LIMIT :limit OFFSET :offset) AS ids,
              (SELECT version FROM search_version) AS version`,
      { search, pattern: containsPattern(search), category: category ?? null, limit, offset },
    );
    return rows[0]!;
  }

  /**
   * A page's products and the search version, read in one statement (one snapshot); null when
   * none of them is there any more (a deletion, which changed the version: search again).
   */
  private async productsAtVersion(ids: string[]): Promise<{ version: string; products: PublicProduct[] } | null> {
    if (ids.length === 0) return { version: await this.searchVersion(), products: [] };
    // One plain statement rather than a query builder: this runs for every filtered page, and
    // building the query cost more of the store's CPU than PostgreSQL spent answering it. The
    // rows become products as any other read's do (Product.fromDatabaseJson).
    const { rows } = await this.db.raw<{ rows: Record<string, unknown>[] }>(
      `SELECT ${this.publicColumnsAsProperties}, (SELECT version FROM search_version) AS search_version
         FROM products WHERE id = ANY(?::uuid[])`,
      [ids],
    );
    if (rows.length === 0) return null;
    const found = rows.map((row) => Product.fromDatabaseJson(row));
    return { version: rows[0]!.search_version as string, products: inOrder(ids, found) };
  }

  /**
   * The exact number of products, of one category or all, as the triggers of migration 19 keep
   * it: one row read instead of every product counted.
   */
  async catalogueSize(category?: string): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { total: number | string | null }[] }>(
      `SELECT (${catalogueSizeSql(category)}) AS total`,
      category ? [category] : [],
    );
    return Number(rows[0]?.total ?? 0);
  }
}

/** The search and the category as conditions of a filtered list, in the search's own terms (findMatches). */
function baseConditions(search: string, category: string | undefined): Condition[] {
  const base: Condition[] = [];
  if (search) {
    base.push(
      ONE_WORD.test(search)
        ? { sql: "search_text LIKE lower(?)", bindings: [containsPattern(search)] }
        : {
            sql: "(search_text LIKE lower(?) OR search_vector @@ plainto_tsquery('simple', ?))",
            bindings: [containsPattern(search), search],
          },
    );
  }
  if (category) base.push({ sql: "category = ?", bindings: [category] });
  return base;
}

/**
 * Product.publicColumns as a plain statement's select list, each column named as its property:
 * a plain statement's rows keep the names it gives (the snake_case mapper of server/db/database.ts
 * renames only a query builder's rows), so the rows are products' properties as they come, with
 * no renamed copy of each row. The columns are quoted by the database's own query builder (and
 * its mapper), once; formatting the list on every call was a fiftieth of the filtered API's CPU.
 */
function publicColumnsAsProperties(db: Database): string {
  return Product.publicColumns
    .map((column) => {
      const property = column.slice(column.indexOf(".") + 1);
      // A quoted identifier, as PostgreSQL reads one: any double quote in it doubled.
      return `${db.raw("??", [column]).toQuery()} AS "${property.replaceAll('"', '""')}"`;
    })
    .join(", ");
}

/** localeCompare(…, "en") made once: the options are sorted on every filtered answer. */
const byLabel = new Intl.Collator("en").compare;

/**
 * The facets' rows as options: labels for the bands and minimums, the fixed lists in their own
 * order, brands, straps and dials by name.
 */
function facetOptions(rows: Partial<FacetRows>): FacetCounts {
  const counted = (facet: Facet) => new Map((rows[facet] ?? []).map((row) => [row.value, row]));
  const inOrderOf = (facet: Facet, values: readonly (string | number)[], label: (value: string) => string) => {
    const found = counted(facet);
    return values.flatMap((value) => {
      const row = found.get(String(value));
      return row ? [{ value: String(value), label: label(String(value)), count: row.count }] : [];
    });
  };
  const byName = (facet: Facet) =>
    [...counted(facet).values()]
      .map((row) => ({ value: row.value, label: row.label ?? row.value, count: row.count }))
      .sort((a, b) => byLabel(a.label, b.label));
  const bandLabels = new Map<string, string>(CASE_SIZE_BANDS.map((band) => [band.value, band.label]));
  return {
    brand: byName("brand"),
    movement: inOrderOf("movement", MOVEMENTS, (value) => value),
    caseSize: inOrderOf(
      "caseSize",
      CASE_SIZE_BANDS.map((band) => band.value),
      (value) => bandLabels.get(value)!,
    ),
    strap: byName("strap"),
    dial: byName("dial"),
    waterResistance: inOrderOf("waterResistance", WATER_RESISTANCE_MINIMUMS, (value) => `At least ${value} m`),
    feature: inOrderOf("feature", WATCH_FEATURES, (value) => value),
  };
}

/**
 * The page a filtered view asks of an order the index keeps (newest or oldest first, price either
 * way); null for the name orders and a search's best match, which SQL ranks.
 */
function keptOrder(sort: ProductSort | undefined, search: string, page: number, limit: number): PageRequest | null {
  if (!sort && search) return null;
  const order = sort ?? DEFAULT_PRODUCT_SORT;
  const offset = (page - 1) * limit;
  if (order === "createdAt" || order === "-createdAt") {
    return { order: "createdAt", descending: order.startsWith("-"), offset, limit };
  }
  if (order === "price" || order === "-price")
    return { order: "price", descending: order.startsWith("-"), offset, limit };
  return null;
}
