import type { Database } from "../../db/database";
import { containsPattern } from "../shared/search";
import { CASE_SIZE_SQL, type CatalogFilters, type Facet } from "./catalog-filters";
import { ONE_WORD } from "./catalog-sql";
import { CASE_SIZE_BANDS, WATCH_FEATURES, WATER_RESISTANCE_MINIMUMS } from "./watch-specs.shared";

/**
 * The filters' counts of any view, counted in this app server's memory
 * (docs/decisions/2026-11-26-catalogue-filters.md): what each product has of every filtered
 * specification, held as one typed array per filter (a few megabytes at 100,000 products), so a
 * view's counts are one pass over those arrays, a few milliseconds, where counting in SQL read
 * every product the view's other filters let through.
 *
 * Fresh by the search version (migrations 20261123000021 and 20261126000060): the products are
 * read with the version in one statement, and the index answers only while the version read now
 * is still that one. When it has moved (a product added, removed or its filtered fields written,
 * a brand renamed; not a sale, which writes stock only), the request is answered by counting in
 * SQL as before and the index is read again beside it, one reading at a time; so every app server
 * answers what its database holds now, and a change is seen by the next view.
 */

/** Each facet's options as counted: the shape the SQL counts have (catalog-filters.ts, facetQueries). */
export type FacetRows = Record<Facet, { value: string; label?: string; count: number }[]>;

/** Strings of one column as small numbers: 0 for none, n for values[n - 1]. */
class Codes {
  readonly values: string[] = [];
  private readonly byValue = new Map<string, number>();

  code(value: string | null): number {
    if (value === null) return 0;
    let code = this.byValue.get(value);
    if (code === undefined) {
      this.values.push(value);
      code = this.values.length;
      this.byValue.set(value, code);
    }
    return code;
  }

  find(value: string): number | undefined {
    return this.byValue.get(value);
  }

  /** Which codes are among `values` (none for a value no product has). */
  chosen(values: string[]): Uint8Array {
    const chosen = new Uint8Array(this.values.length + 1);
    for (const value of values) {
      const code = this.byValue.get(value);
      if (code !== undefined) chosen[code] = 1;
    }
    return chosen;
  }
}

type Snapshot = {
  version: string;
  size: number;
  /** A product's position by its id, for a search's matches. */
  positions: Map<string, number>;
  category: Uint32Array;
  categories: Codes;
  /** By brand slug; the brands' names (the options' labels) beside. */
  brand: Uint32Array;
  brands: Codes;
  brandNames: string[];
  price: Float64Array;
  movement: Uint32Array;
  movements: Codes;
  /** The case size band's place in CASE_SIZE_BANDS, -1 without a diameter. */
  caseSize: Int8Array;
  strap: Uint32Array;
  straps: Codes;
  dial: Uint32Array;
  dials: Codes;
  /** Metres, -1 when not given (below every minimum a filter can ask). */
  waterResistance: Int32Array;
  /** One bit per WATCH_FEATURES entry. */
  features: Uint32Array;
};

type ProductRow = {
  version: string;
  id: string;
  category: string;
  price: number;
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

/** The filter groups in the order a product is tested; the price has no facet of its own. */
const GROUPS = ["brand", "price", "movement", "caseSize", "strap", "dial", "waterResistance", "feature"] as const;
type Group = (typeof GROUPS)[number];

export class FacetIndex {
  private snapshot: Snapshot | null = null;
  private reading: Promise<void> | null = null;

  constructor(private readonly db: Database) {}

  /**
   * A view's counts from memory, or null when the index is not at the catalogue's version now
   * (then a reading starts, and the caller counts in SQL). A search's matches come from the
   * database, with the version, in one statement; the category and filters are applied here.
   */
  async counts(filters: CatalogFilters, scope: { search: string; category?: string }): Promise<FacetRows | null> {
    const snapshot = this.snapshot;
    let matching: Uint8Array | null = null;
    let version: string;
    if (scope.search && snapshot) {
      const found = await this.searchMatches(scope.search);
      version = found.version;
      if (version === snapshot.version) {
        matching = new Uint8Array(snapshot.size);
        for (const id of found.ids) {
          const position = snapshot.positions.get(id);
          if (position !== undefined) matching[position] = 1;
        }
      }
    } else {
      const { rows } = await this.db.raw<{ rows: { version: string }[] }>("SELECT version FROM search_version");
      version = rows[0]!.version;
    }
    if (!snapshot || snapshot.version !== version) {
      void this.refresh();
      return null;
    }
    return countView(snapshot, filters, scope.category, matching);
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
    // row without a product) in the same statement.
    const { rows: read } = await this.db.raw<{ rows: (ProductRow | (Partial<ProductRow> & { id: null }))[] }>(
      `SELECT v.version, p.id, p.category, p.price::float8 AS price, p.brand_slug, p.brand_name, p.movement,
              p.case_size, p.strap_material, p.dial_colour, p.water_resistance_m, p.features
         FROM search_version v LEFT JOIN (
              SELECT p.id, p.category, p.price, b.slug AS brand_slug, b.name AS brand_name, p.movement,
                     ${CASE_SIZE_PLACE} AS case_size, p.strap_material, p.dial_colour, p.water_resistance_m, p.features
                FROM products p LEFT JOIN brands b ON b.id = p.brand_id) p ON true`,
    );
    const version = read[0]!.version!;
    const rows = read.filter((row): row is ProductRow => row.id !== null);
    const size = rows.length;
    const snapshot: Snapshot = {
      version,
      size,
      positions: new Map(),
      category: new Uint32Array(size),
      categories: new Codes(),
      brand: new Uint32Array(size),
      brands: new Codes(),
      brandNames: [],
      price: new Float64Array(size),
      movement: new Uint32Array(size),
      movements: new Codes(),
      caseSize: new Int8Array(size),
      strap: new Uint32Array(size),
      straps: new Codes(),
      dial: new Uint32Array(size),
      dials: new Codes(),
      waterResistance: new Int32Array(size),
      features: new Uint32Array(size),
    };
    const featureBits = new Map<string, number>(WATCH_FEATURES.map((feature, bit) => [feature, 1 << bit]));
    rows.forEach((row, position) => {
      snapshot.positions.set(row.id, position);
      snapshot.category[position] = snapshot.categories.code(row.category);
      const brand = snapshot.brands.code(row.brand_slug);
      if (brand > 0) snapshot.brandNames[brand - 1] = row.brand_name!;
      snapshot.brand[position] = brand;
      snapshot.price[position] = row.price;
      snapshot.movement[position] = snapshot.movements.code(row.movement);
      snapshot.caseSize[position] = row.case_size ?? -1;
      snapshot.strap[position] = snapshot.straps.code(row.strap_material);
      snapshot.dial[position] = snapshot.dials.code(row.dial_colour);
      snapshot.waterResistance[position] = row.water_resistance_m ?? -1;
      let bits = 0;
      for (const feature of row.features ?? []) bits |= featureBits.get(feature) ?? 0;
      snapshot.features[position] = bits;
    });
    return snapshot;
  }
}

/**
 * One pass over the products in scope: a product that passes every filter counts in every
 * facet; one that fails exactly one filter counts only in that filter's facet (its counts leave
 * its own filter out: RULINGS.md, fifth wave); one that fails two counts nowhere.
 */
function countView(
  snapshot: Snapshot,
  filters: CatalogFilters,
  category: string | undefined,
  matching: Uint8Array | null,
): FacetRows {
  const { size } = snapshot;
  const categoryCode = category === undefined ? 0 : (snapshot.categories.find(category) ?? -1);
  const brandChosen = snapshot.brands.chosen(filters.brand);
  const movementChosen = snapshot.movements.chosen(filters.movement);
  const strapChosen = snapshot.straps.chosen(filters.strap);
  const dialChosen = snapshot.dials.chosen(filters.dial);
  let caseSizeChosen = 0;
  for (const band of filters.caseSize) caseSizeChosen |= 1 << CASE_SIZE_BANDS.findIndex((b) => b.value === band);
  let featureChosen = 0;
  for (const feature of filters.feature) featureChosen |= 1 << WATCH_FEATURES.indexOf(feature as never);
  const minPrice = filters.minPrice ?? -Infinity;
  const maxPrice = filters.maxPrice ?? Infinity;
  const leastWater = filters.waterResistance;
  const on = {
    brand: filters.brand.length > 0,
    price: filters.minPrice !== undefined || filters.maxPrice !== undefined,
    movement: filters.movement.length > 0,
    caseSize: filters.caseSize.length > 0,
    strap: filters.strap.length > 0,
    dial: filters.dial.length > 0,
    waterResistance: leastWater !== undefined,
    feature: filters.feature.length > 0,
  };

  const brandCounts = new Uint32Array(snapshot.brands.values.length + 1);
  const movementCounts = new Uint32Array(snapshot.movements.values.length + 1);
  const caseSizeCounts = new Uint32Array(CASE_SIZE_BANDS.length);
  const strapCounts = new Uint32Array(snapshot.straps.values.length + 1);
  const dialCounts = new Uint32Array(snapshot.dials.values.length + 1);
  const waterCounts = new Uint32Array(WATER_RESISTANCE_MINIMUMS.length);
  const featureCounts = new Uint32Array(WATCH_FEATURES.length);
  const add: Record<Facet, (position: number) => void> = {
    brand: (position) => brandCounts[snapshot.brand[position]!]!++,
    movement: (position) => movementCounts[snapshot.movement[position]!]!++,
    caseSize: (position) => {
      const band = snapshot.caseSize[position]!;
      if (band >= 0) caseSizeCounts[band]!++;
    },
    strap: (position) => strapCounts[snapshot.strap[position]!]!++,
    dial: (position) => dialCounts[snapshot.dial[position]!]!++,
    waterResistance: (position) => {
      const metres = snapshot.waterResistance[position]!;
      WATER_RESISTANCE_MINIMUMS.forEach((least, place) => {
        if (metres >= least) waterCounts[place]!++;
      });
    },
    feature: (position) => {
      const bits = snapshot.features[position]!;
      for (let bit = 0; bit < WATCH_FEATURES.length; bit++) if (bits & (1 << bit)) featureCounts[bit]!++;
    },
  };
  const passes: Record<Group, (position: number) => boolean> = {
    brand: (position) => brandChosen[snapshot.brand[position]!] === 1,
    price: (position) => snapshot.price[position]! >= minPrice && snapshot.price[position]! <= maxPrice,
    movement: (position) => movementChosen[snapshot.movement[position]!] === 1,
    caseSize: (position) =>
      snapshot.caseSize[position]! >= 0 && (caseSizeChosen & (1 << snapshot.caseSize[position]!)) !== 0,
    strap: (position) => strapChosen[snapshot.strap[position]!] === 1,
    dial: (position) => dialChosen[snapshot.dial[position]!] === 1,
    waterResistance: (position) => snapshot.waterResistance[position]! >= leastWater!,
    feature: (position) => (snapshot.features[position]! & featureChosen) !== 0,
  };
  const tested = GROUPS.filter((group) => on[group]);
  const facets = Object.keys(add) as Facet[];

  for (let position = 0; position < size; position++) {
    if (categoryCode !== 0 && snapshot.category[position] !== categoryCode) continue;
    if (matching && matching[position] === 0) continue;
    let failed: Group | null = null;
    let failures = 0;
    for (const group of tested) {
      if (passes[group](position)) continue;
      failed = group;
      if (++failures > 1) break;
    }
    if (failures === 0) for (const facet of facets) add[facet](position);
    else if (failures === 1 && failed !== "price") add[failed!](position);
  }

  const byCode = (codes: Codes, counts: Uint32Array, labels?: string[]) =>
    codes.values.flatMap((value, index) =>
      counts[index + 1]! > 0
        ? [{ value, ...(labels ? { label: labels[index]! } : {}), count: counts[index + 1]! }]
        : [],
    );
  const byList = (values: readonly (string | number)[], counts: Uint32Array) =>
    values.flatMap((value, index) => (counts[index]! > 0 ? [{ value: String(value), count: counts[index]! }] : []));
  return {
    brand: byCode(snapshot.brands, brandCounts, snapshot.brandNames),
    movement: byCode(snapshot.movements, movementCounts),
    caseSize: byList(
      CASE_SIZE_BANDS.map((band) => band.value),
      caseSizeCounts,
    ),
    strap: byCode(snapshot.straps, strapCounts),
    dial: byCode(snapshot.dials, dialCounts),
    waterResistance: byList(WATER_RESISTANCE_MINIMUMS, waterCounts),
    feature: byList(WATCH_FEATURES, featureCounts),
  };
}
