import type { CatalogFilters, Facet } from "./catalog-filters";
import { CASE_SIZE_BANDS, WATCH_FEATURES, WATER_RESISTANCE_MINIMUMS } from "./watch-specs.shared";

/**
 * One view of the catalogue from the filters' index in memory (facet-index.ts): its counts, and
 * for the orders the index keeps, its page and total, in one pass over the products
 * (docs/decisions/2026-11-26-catalogue-filters.md). Written as one plain loop over typed arrays,
 * since it runs over every product in scope at every view never asked before.
 */

/** Each facet's options as counted: the shape the SQL counts have (catalog-filters.ts, facetQueries). */
export type FacetRows = Record<Facet, { value: string; label?: string; count: number }[]>;

/** Strings of one column as small numbers: 0 for none, n for values[n - 1]. */
export class Codes {
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

/** The orders the index keeps: newest first and by price, either way (catalog-sql.ts, SORT_ORDER). */
export type IndexedOrder = "createdAt" | "price";

export type Snapshot = {
  version: string;
  size: number;
  /** A product's id by its position, and its position by its id (for a search's matches). */
  ids: string[];
  positions: Map<string, number>;
  /**
   * The positions in each kept order, ascending by the sort key and then by id, as PostgreSQL's
   * `ORDER BY key, id` has them (a uuid compares as its lowercase text does); descending is this
   * read backwards, since no two products share an id.
   */
  ascending: Record<IndexedOrder, Int32Array>;
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
  /** How many of WATER_RESISTANCE_MINIMUMS (ascending) the product reaches. */
  waterLevel: Uint8Array;
  /** One bit per WATCH_FEATURES entry. */
  features: Uint32Array;
};

/** The page asked of a kept order: rows from `offset`, at most `limit`. */
export type PageRequest = { order: IndexedOrder; descending: boolean; offset: number; limit: number };

export type ViewPass = { counts: FacetRows; total: number; ids: string[] };

// Which filter a product failed, when it failed exactly one: its facet counts it (RULINGS.md, fifth wave).
const BRAND = 0;
const PRICE = 1;
const MOVEMENT = 2;
const CASE_SIZE = 3;
const STRAP = 4;
const DIAL = 5;
const WATER = 6;
const FEATURE = 7;

/**
 * One pass over the products in scope: a product that passes every filter counts in every facet
 * (and in the total, and on the page when its place in the order is the page's); one that fails
 * exactly one filter counts only in that filter's facet (its counts leave its own filter out);
 * one that fails two counts nowhere.
 */
export function passView(
  snapshot: Snapshot,
  filters: CatalogFilters,
  category: string | undefined,
  matching: Uint8Array | null,
  page: PageRequest | null,
): ViewPass {
  const { size, brand, price, movement, caseSize, strap, dial, waterResistance, waterLevel, features } = snapshot;
  const categoryCode = category === undefined ? 0 : (snapshot.categories.find(category) ?? -1);
  const categoryOf = snapshot.category;
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
  const leastWater = filters.waterResistance ?? -Infinity;
  const brandOn = filters.brand.length > 0;
  const priceOn = filters.minPrice !== undefined || filters.maxPrice !== undefined;
  const movementOn = filters.movement.length > 0;
  const caseSizeOn = filters.caseSize.length > 0;
  const strapOn = filters.strap.length > 0;
  const dialOn = filters.dial.length > 0;
  const waterOn = filters.waterResistance !== undefined;
  const featureOn = filters.feature.length > 0;

  const brandCounts = new Uint32Array(snapshot.brands.values.length + 1);
  const movementCounts = new Uint32Array(snapshot.movements.values.length + 1);
  const caseSizeCounts = new Uint32Array(CASE_SIZE_BANDS.length);
  const strapCounts = new Uint32Array(snapshot.straps.values.length + 1);
  const dialCounts = new Uint32Array(snapshot.dials.values.length + 1);
  const waterLevelCounts = new Uint32Array(WATER_RESISTANCE_MINIMUMS.length + 1);
  const featureSetCounts = new Uint32Array(1 << WATCH_FEATURES.length);

  const order = page ? snapshot.ascending[page.order] : null;
  const descending = page?.descending ?? false;
  const first = page?.offset ?? 0;
  const end = page ? page.offset + page.limit : 0;
  const ids: string[] = [];
  let total = 0;

  for (let step = 0; step < size; step++) {
    const p = order === null ? step : order[descending ? size - 1 - step : step]!;
    if (categoryCode !== 0 && categoryOf[p] !== categoryCode) continue;
    if (matching !== null && matching[p] === 0) continue;
    // A product failing two filters counts nowhere, so which one failed last does not matter then.
    let failed = -1;
    let failures = 0;
    if (brandOn && brandChosen[brand[p]!] !== 1) {
      failed = BRAND;
      failures++;
    }
    if (priceOn && !(price[p]! >= minPrice && price[p]! <= maxPrice)) {
      failed = PRICE;
      failures++;
    }
    if (movementOn && movementChosen[movement[p]!] !== 1) {
      failed = MOVEMENT;
      failures++;
    }
    if (caseSizeOn && (caseSize[p]! < 0 || (caseSizeChosen & (1 << caseSize[p]!)) === 0)) {
      failed = CASE_SIZE;
      failures++;
    }
    if (failures > 1) continue;
    if (strapOn && strapChosen[strap[p]!] !== 1) {
      failed = STRAP;
      failures++;
    }
    if (dialOn && dialChosen[dial[p]!] !== 1) {
      failed = DIAL;
      failures++;
    }
    if (waterOn && !(waterResistance[p]! >= leastWater)) {
      failed = WATER;
      failures++;
    }
    if (featureOn && (features[p]! & featureChosen) === 0) {
      failed = FEATURE;
      failures++;
    }
    if (failures > 1) continue;
    if (failures === 0) {
      if (total >= first && total < end) ids.push(snapshot.ids[p]!);
      total++;
    }
    if (failures === 0 || failed === BRAND) brandCounts[brand[p]!]!++;
    if (failures === 0 || failed === MOVEMENT) movementCounts[movement[p]!]!++;
    if ((failures === 0 || failed === CASE_SIZE) && caseSize[p]! >= 0) caseSizeCounts[caseSize[p]!]!++;
    if (failures === 0 || failed === STRAP) strapCounts[strap[p]!]!++;
    if (failures === 0 || failed === DIAL) dialCounts[dial[p]!]!++;
    if (failures === 0 || failed === WATER) waterLevelCounts[waterLevel[p]!]!++;
    if (failures === 0 || failed === FEATURE) featureSetCounts[features[p]!]!++;
  }

  // A product reaching level n counts under each of the first n minimums; a product with a set
  // of features counts under each of them.
  const waterCounts = new Uint32Array(WATER_RESISTANCE_MINIMUMS.length);
  for (let level = 1; level < waterLevelCounts.length; level++) {
    for (let place = 0; place < level; place++) waterCounts[place]! += waterLevelCounts[level]!;
  }
  const featureCounts = new Uint32Array(WATCH_FEATURES.length);
  for (let set = 1; set < featureSetCounts.length; set++) {
    if (featureSetCounts[set] === 0) continue;
    for (let bit = 0; bit < WATCH_FEATURES.length; bit++)
      if (set & (1 << bit)) featureCounts[bit]! += featureSetCounts[set]!;
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
    counts: {
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
    },
    total,
    ids,
  };
}
