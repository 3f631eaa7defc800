import type { Database } from "../../db/database";
import { containsPattern } from "../shared/search";
import { CASE_SIZE_SQL, type CatalogFilters } from "./catalog-filters";
import { Codes, passView, type PageRequest, type Snapshot, type ViewPass } from "./facet-view";
import { ONE_WORD } from "./catalog-sql";
import { CASE_SIZE_BANDS, WATCH_FEATURES, WATER_RESISTANCE_MINIMUMS } from "./watch-specs.shared";

export type { FacetRows, PageRequest } from "./facet-view";

/**
 * The filters' counts of any view, and a filtered page in the orders it keeps with its total,
 * from this app server's memory (docs/decisions/2026-11-26-catalogue-filters.md): each product's
 * price and group (the products alike in every other filtered field), and each group's fields,
 * held in typed arrays (a few megabytes at 100,000 products), so a view tests its groups and
 * counts the products of its price range (facet-view.ts), where SQL read every product the view's
 * filters let through.
 *
 * Fresh by the search version (migrations 20261123000021 and 20261126000060): the products are
 * read with the version in one statement, and the index answers only while the version read now
 * is still that one (for a page: the version read with the page's rows). When it has moved (a
 * product added, removed or its filtered fields or price written, a brand renamed; not a sale,
 * which writes stock only), the request is answered in SQL as before and the index is read again beside it, one reading at a time; so every app server
 * answers what its database holds now, and a change is seen by the next view.
 */

export type ProductRow = {
  version: string;
  id: string;
  category: string;
  price: number;
  /** The product's place by price (then id), from 0. */
  price_place: number;
  brand_slug: string | null;
  brand_name: string | null;
  movement: string | null;
  case_size: number | null;
  strap_material: string | null;
  dial_colour: string | null;
  water_resistance_m: number | null;
  features: string[];
};

// The band is computed by the same SQL the filter and the SQL counts use (CASE_SIZE_SQL), so the
// index cannot place a diameter of exactly 36, 40 or 44 mm in another band than they do.
const CASE_SIZE_PLACE = `CASE ${CASE_SIZE_BANDS.map((band, place) => `WHEN ${CASE_SIZE_SQL[band.value]} THEN ${place}`).join(" ")} END`;

/** How many views' counts are kept between requests: a few hundred kilobytes at most. */
const KEPT_VIEWS = 200;
/** How many searches' matches are kept: a byte a product each, 3 MB at 100,000 products. */
const KEPT_SEARCHES = 32;

export class FacetIndex {
  private snapshot: Snapshot | null = null;
  private reading: Promise<void> | null = null;
  /** Views without a search or a page, passed over at `keptVersion`, oldest first. */
  private readonly kept = new Map<string, ViewPass>();
  private keptVersion: string | null = null;
  /**
   * Searches' matches at `keptVersion`, by search, oldest first: a search asked again (the page
   * cache missed, a filter or a page changed) reads none of its matches again. At 100,000 products
   * a broad term's ids, read and placed, were most of its page's cost (bench/README.md).
   */
  private readonly searchesKept = new Map<string, Uint8Array>();

  constructor(private readonly db: Database) {}

  /**
   * A view from memory: its counts, and its page and total when `page` names a kept order; null
   * when the index has not been read or a search's matches (read from the database with the
   * version, in one statement, or kept from an earlier view at the index's version) are from
   * another version than the index (then a reading starts).
   * Unless `versionChecked` (a search's matches read now), the answer is the index's: `version` is
   * what the caller must find in the database, read with the page's rows or on its own, before
   * trusting it (else `behind`).
   */
  async view(
    filters: CatalogFilters,
    scope: { search: string; category?: string },
    page: PageRequest | null,
  ): Promise<(ViewPass & { version: string; versionChecked: boolean }) | null> {
    const snapshot = this.snapshot;
    if (!snapshot) {
      void this.refresh();
      return null;
    }
    if (this.keptVersion !== snapshot.version) {
      this.kept.clear();
      this.searchesKept.clear();
      this.keptVersion = snapshot.version;
    }
    let matching: Uint8Array | null = null;
    // A search's matches read now carry the version they were read at; kept ones leave the
    // version to the caller to check (`versionChecked`), as a view without a search does.
    let versionChecked = false;
    if (scope.search) {
      matching = this.searchesKept.get(scope.search) ?? null;
      if (!matching) {
        const found = await this.searchMatches(scope.search);
        if (found.version !== snapshot.version) {
          this.behind(found.version);
          return null;
        }
        matching = new Uint8Array(snapshot.size);
        for (const id of found.ids) {
          const position = snapshot.positions.get(id);
          if (position !== undefined) matching[position] = 1;
        }
        versionChecked = true;
        // Kept only for the version it was read at: another request may have moved the index on meanwhile.
        if (this.keptVersion === snapshot.version) {
          if (this.searchesKept.size >= KEPT_SEARCHES) {
            this.searchesKept.delete(this.searchesKept.keys().next().value!);
          }
          this.searchesKept.set(scope.search, matching);
        }
      }
    }
    // The catalogue's first page asks the same view at every visit: its counts are kept while the
    // index stays at this version, as the SQL counts are (facet-count-cache.ts).
    const key = page || scope.search ? null : JSON.stringify([filters, scope.category ?? null]);
    const pass = (key && this.kept.get(key)) || passView(snapshot, filters, scope.category, matching, page);
    if (key && !this.kept.has(key)) {
      if (this.kept.size >= KEPT_VIEWS) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, pass);
    }
    return { ...pass, version: snapshot.version, versionChecked };
  }

  /** The catalogue is at `version` now: read the index again unless it is at that version. */
  behind(version: string | undefined): void {
    if (this.snapshot?.version !== version) void this.refresh();
  }

  /**
   * Reads the index again unless a reading is under way (then waits for that one). A failed
   * reading leaves the counts to SQL, and the next view that finds the index behind tries again.
   */
  refresh(): Promise<void> {
    this.reading ??= this.read()
      .then((snapshot) => {
        this.snapshot = snapshot;
      })
      .catch(() => undefined)
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  /**
   * Reads the index as the catalogue is when called: a reading already under way may have begun
   * before the latest change, so it is waited for and a new one begun after it (or one another
   * caller has begun since is joined).
   */
  async readCurrent(): Promise<void> {
    if (this.reading) await this.reading;
    await this.refresh();
  }

  private async searchMatches(search: string): Promise<{ version: string; ids: string[] }> {
    // The search's own condition, as the list and the SQL counts have it (catalog-listing.ts, baseConditions).
    const condition = ONE_WORD.test(search)
      ? "search_text LIKE lower(:pattern)"
      : "(search_text LIKE lower(:pattern) OR search_vector @@ plainto_tsquery('simple', :search))";
    const { rows } = await this.db.raw<{ rows: { version: string; ids: string[] }[] }>(
      `SELECT (SELECT version FROM search_version) AS version, ARRAY(SELECT id FROM products WHERE ${condition}) AS ids`,
      { pattern: containsPattern(search), search },
    );
    return rows[0]!;
  }

  /** Every product's filtered fields and the version, in one statement (one snapshot). */
  private async read(): Promise<Snapshot> {
    // Joined to the version's one row, so that an empty catalogue still reads its version (one
    // row without a product) in the same statement. PostgreSQL itself puts the products in the
    // kept orders (rows by created_at then id, and each one's place by price then id), so the
    // pages from memory break ties exactly as its ORDER BY does.
    const { rows: read } = await this.db.raw<{ rows: (ProductRow | (Partial<ProductRow> & { id: null }))[] }>(
      `SELECT v.version, p.id, p.category, p.price::float8 AS price, p.price_place::int AS price_place,
              p.brand_slug, p.brand_name, p.movement, p.case_size, p.strap_material, p.dial_colour,
              p.water_resistance_m, p.features
         FROM search_version v LEFT JOIN (
              SELECT p.id, p.created_at, p.category, p.price, row_number() OVER (ORDER BY p.price, p.id) - 1 AS price_place,
                     b.slug AS brand_slug, b.name AS brand_name, p.movement,
                     ${CASE_SIZE_PLACE} AS case_size, p.strap_material, p.dial_colour, p.water_resistance_m, p.features
                FROM products p LEFT JOIN brands b ON b.id = p.brand_id) p ON true
        ORDER BY p.created_at, p.id`,
    );
    const version = read[0]!.version!;
    return snapshotOf(
      version,
      read.filter((row): row is ProductRow => row.id !== null),
    );
  }
}

/** The index of `rows` (every product, oldest first), read at `version`. */
export function snapshotOf(version: string, rows: ProductRow[]): Snapshot {
  const size = rows.length;
  const categories = new Codes();
  const brands = new Codes();
  const brandNames: string[] = [];
  const movements = new Codes();
  const straps = new Codes();
  const dials = new Codes();
  const price = new Float64Array(size);
  const byPrice = new Int32Array(size);
  const groupOf = new Uint32Array(size);
  const featureBits = new Map<string, number>(WATCH_FEATURES.map((feature, bit) => [feature, 1 << bit]));
  // Each group's fields in the order of `Groups`, by the key that names them.
  const groupByKey = new Map<string, number>();
  const grouped: number[][] = [];
  const sizes: number[] = [];
  rows.forEach((row, position) => {
    const brand = brands.code(row.brand_slug);
    if (brand > 0) brandNames[brand - 1] = row.brand_name!;
    price[position] = row.price;
    byPrice[row.price_place] = position;
    let bits = 0;
    for (const feature of row.features ?? []) bits |= featureBits.get(feature) ?? 0;
    const waterResistance = row.water_resistance_m ?? -1;
    const fields = [
      categories.code(row.category),
      brand,
      movements.code(row.movement),
      row.case_size ?? -1,
      straps.code(row.strap_material),
      dials.code(row.dial_colour),
      waterResistance,
      WATER_RESISTANCE_MINIMUMS.filter((least) => waterResistance >= least).length,
      bits,
    ];
    const key = fields.join(",");
    let group = groupByKey.get(key);
    if (group === undefined) {
      group = grouped.length;
      groupByKey.set(key, group);
      grouped.push(fields);
      sizes.push(0);
    }
    sizes[group]!++;
    groupOf[position] = group;
  });
  const column = (field: number) => grouped.map((fields) => fields[field]!);
  // Each group's price places, ascending: counted out by group, then filled in price order.
  const placesFrom = new Uint32Array(grouped.length + 1);
  for (let group = 0; group < grouped.length; group++) placesFrom[group + 1] = placesFrom[group]! + sizes[group]!;
  const pricePlaces = new Int32Array(size);
  const filled = placesFrom.slice(0, grouped.length);
  for (let place = 0; place < size; place++) pricePlaces[filled[groupOf[byPrice[place]!]!]!++] = place;
  const snapshot: Snapshot = {
    version,
    size,
    ids: rows.map((row) => row.id),
    positions: new Map(rows.map((row, position) => [row.id, position])),
    ascending: { createdAt: Int32Array.from({ length: size }, (_, position) => position), price: byPrice },
    price,
    group: groupOf,
    groups: {
      count: grouped.length,
      size: Uint32Array.from(sizes),
      category: Uint32Array.from(column(0)),
      brand: Uint32Array.from(column(1)),
      movement: Uint32Array.from(column(2)),
      caseSize: Int8Array.from(column(3)),
      strap: Uint32Array.from(column(4)),
      dial: Uint32Array.from(column(5)),
      waterResistance: Int32Array.from(column(6)),
      waterLevel: Uint8Array.from(column(7)),
      features: Uint32Array.from(column(8)),
      placesFrom,
      pricePlaces,
    },
    categories,
    brands,
    brandNames,
    movements,
    straps,
    dials,
  };
  return snapshot;
}
