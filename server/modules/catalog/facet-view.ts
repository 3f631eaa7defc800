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

/**
 * The products alike in every filtered field but price (category, brand, movement, case size
 * band, strap, dial, water resistance, features): a catalogue has far fewer such groups than
 * products, so a view tests its filters once per group and only the price once per product.
 */
export type Groups = {
  count: number;
  /** How many products each group has: a view without a price or a search counts groups, not products. */
  size: Uint32Array;
  category: Uint32Array;
  brand: Uint32Array;
  movement: Uint32Array;
  /** The case size band's place in CASE_SIZE_BANDS, -1 without a diameter. */
  caseSize: Int8Array;
  strap: Uint32Array;
  dial: Uint32Array;
  /** Metres, -1 when not given (below every minimum a filter can ask). */
  waterResistance: Int32Array;
  /** How many of WATER_RESISTANCE_MINIMUMS (ascending) the group reaches. */
  waterLevel: Uint8Array;
  /** One bit per WATCH_FEATURES entry. */
  features: Uint32Array;
  /**
   * Each group's products by their places in the price order, ascending: group g's are
   * `pricePlaces[placesFrom[g]]` up to (not including) `pricePlaces[placesFrom[g + 1]]`. A price
   * range counts a group's products in it by two binary searches instead of visiting each one.
   */
  placesFrom: Uint32Array;
  pricePlaces: Int32Array;
};

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
  price: Float64Array;
  /** Each product's group (the index into `groups`' arrays). */
  group: Uint32Array;
  groups: Groups;
  categories: Codes;
  /** By brand slug; the brands' names (the options' labels) beside. */
  brands: Codes;
  brandNames: string[];
  movements: Codes;
  straps: Codes;
  dials: Codes;
};

/** The page asked of a kept order: rows from `offset`, at most `limit`. */
export type PageRequest = { order: IndexedOrder; descending: boolean; offset: number; limit: number };

export type ViewPass = { counts: FacetRows; total: number; ids: string[] };

// The filters but the price, one bit each in what a group fails. Which one a product failed, when
// it failed exactly one, says which facet counts it (RULINGS.md, fifth wave); the price has no
// facet, so a product outside its range counts nowhere (and is never a group's: see `through`).
const BRAND = 0;
const MOVEMENT = 1;
const CASE_SIZE = 2;
const STRAP = 3;
const DIAL = 4;
const WATER = 5;
const FEATURE = 6;
/** Another category than the view's: counted nowhere, whatever else it fails. */
const OUT_OF_SCOPE = 7;
/** Where a fail mask counts, beside the one filter failed: nowhere, or in every facet and the total. */
const NOWHERE = 255;
const ALL = 254;

/**
 * A view's counts, total and page. A product that passes every filter counts in every facet (and
 * in the total, and on the page when its place in the order is the page's); one that fails exactly
 * one filter counts only in that filter's facet (its counts leave its own filter out); one that
 * fails two counts nowhere. Every filter but the price is tested once per group (facet-index.ts
 * groups the products alike in all of them), and a group's products within the price range are
 * counted together. So a view costs its groups and the shorter side of its price range (found
 * in the price order), not 7 counts per product. With a search, its matches are counted one by
 * one into their groups.
 */
export function passView(
  snapshot: Snapshot,
  filters: CatalogFilters,
  category: string | undefined,
  matching: Uint8Array | null,
  page: PageRequest | null,
): ViewPass {
  const { size, groups, price } = snapshot;
  const groupOf = snapshot.group;
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
  const leastWater = filters.waterResistance ?? -Infinity;
  const brandOn = filters.brand.length > 0;
  const movementOn = filters.movement.length > 0;
  const caseSizeOn = filters.caseSize.length > 0;
  const strapOn = filters.strap.length > 0;
  const dialOn = filters.dial.length > 0;
  const waterOn = filters.waterResistance !== undefined;
  const featureOn = filters.feature.length > 0;

  // What each group fails of the filters but the price.
  const failsOf = new Uint16Array(groups.count);
  for (let g = 0; g < groups.count; g++) {
    let fails = 0;
    if (categoryCode !== 0 && groups.category[g] !== categoryCode) fails |= 1 << OUT_OF_SCOPE;
    if (brandOn && brandChosen[groups.brand[g]!] !== 1) fails |= 1 << BRAND;
    if (movementOn && movementChosen[groups.movement[g]!] !== 1) fails |= 1 << MOVEMENT;
    const band = groups.caseSize[g]!;
    if (caseSizeOn && (band < 0 || (caseSizeChosen & (1 << band)) === 0)) fails |= 1 << CASE_SIZE;
    if (strapOn && strapChosen[groups.strap[g]!] !== 1) fails |= 1 << STRAP;
    if (dialOn && dialChosen[groups.dial[g]!] !== 1) fails |= 1 << DIAL;
    if (waterOn && !(groups.waterResistance[g]! >= leastWater)) fails |= 1 << WATER;
    if (featureOn && (groups.features[g]! & featureChosen) === 0) fails |= 1 << FEATURE;
    failsOf[g] = fails;
  }
  // Where a fail mask counts: ALL (every facet), the one filter failed, or NOWHERE (two failed, or
  // out of scope).
  const countsIn = new Uint8Array(1 << (OUT_OF_SCOPE + 1)).fill(NOWHERE);
  countsIn[0] = ALL;
  for (const filter of [BRAND, MOVEMENT, CASE_SIZE, STRAP, DIAL, WATER, FEATURE]) countsIn[1 << filter] = filter;

  // How many products of each group the price range (and a search) lets through: the others fail
  // the price, so they count nowhere (the price has no facet, and with it failed, any other failure
  // makes two). Without a search, the range is a stretch of the price order: its products are
  // counted, or, when fewer, those outside it are taken from the groups' sizes.
  const through = new Uint32Array(groups.count);
  const inRange = (p: number) => price[p]! >= minPrice && price[p]! <= maxPrice;
  if (matching === null) {
    const byPrice = snapshot.ascending.price;
    const from = firstPlace(snapshot, (p) => price[p]! >= minPrice);
    const to = Math.max(
      from,
      firstPlace(snapshot, (p) => price[p]! > maxPrice),
    );
    const visits = Math.min(to - from, size - (to - from));
    if (groups.count * Math.log2(size + 1) * 2 < visits) {
      for (let g = 0; g < groups.count; g++) {
        through[g] = placesBelow(groups, g, to) - placesBelow(groups, g, from);
      }
    } else if (to - from <= size - (to - from)) {
      for (let place = from; place < to; place++) through[groupOf[byPrice[place]!]!]!++;
    } else {
      through.set(groups.size);
      for (let place = 0; place < from; place++) through[groupOf[byPrice[place]!]!]!--;
      for (let place = to; place < size; place++) through[groupOf[byPrice[place]!]!]!--;
    }
  } else {
    for (let p = 0; p < size; p++) if (matching[p] === 1 && inRange(p)) through[groupOf[p]!]!++;
  }

  const brandCounts = new Uint32Array(snapshot.brands.values.length + 1);
  const movementCounts = new Uint32Array(snapshot.movements.values.length + 1);
  const caseSizeCounts = new Uint32Array(CASE_SIZE_BANDS.length);
  const strapCounts = new Uint32Array(snapshot.straps.values.length + 1);
  const dialCounts = new Uint32Array(snapshot.dials.values.length + 1);
  const waterLevelCounts = new Uint32Array(WATER_RESISTANCE_MINIMUMS.length + 1);
  const featureSetCounts = new Uint32Array(1 << WATCH_FEATURES.length);
  let total = 0;
  for (let g = 0; g < groups.count; g++) {
    const n = through[g]!;
    const where = countsIn[failsOf[g]!]!;
    if (n === 0 || where === NOWHERE) continue;
    if (where === ALL) total += n;
    if (where === ALL || where === BRAND) brandCounts[groups.brand[g]!]! += n;
    if (where === ALL || where === MOVEMENT) movementCounts[groups.movement[g]!]! += n;
    if ((where === ALL || where === CASE_SIZE) && groups.caseSize[g]! >= 0) caseSizeCounts[groups.caseSize[g]!]! += n;
    if (where === ALL || where === STRAP) strapCounts[groups.strap[g]!]! += n;
    if (where === ALL || where === DIAL) dialCounts[groups.dial[g]!]! += n;
    if (where === ALL || where === WATER) waterLevelCounts[groups.waterLevel[g]!]! += n;
    if (where === ALL || where === FEATURE) featureSetCounts[groups.features[g]!]! += n;
  }

  // The page: the products that pass every filter, in the order's ranks from the page's first.
  const ids: string[] = [];
  if (page && page.offset < total) {
    const order = snapshot.ascending[page.order];
    let rank = 0;
    for (let step = 0; step < size && ids.length < page.limit; step++) {
      const p = order[page.descending ? size - 1 - step : step]!;
      if (failsOf[groupOf[p]!] !== 0 || !inRange(p) || (matching !== null && matching[p] === 0)) continue;
      if (rank >= page.offset) ids.push(snapshot.ids[p]!);
      rank++;
    }
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

/** How many of group g's products are at a place in the price order before `place`. */
function placesBelow(groups: Groups, g: number, place: number): number {
  const first = groups.placesFrom[g]!;
  let low = first;
  let high = groups.placesFrom[g + 1]!;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (groups.pricePlaces[middle]! < place) low = middle + 1;
    else high = middle;
  }
  return low - first;
}

/** The first place in the price order whose product `reaches` (which holds from some place on), else the size. */
function firstPlace(snapshot: Snapshot, reaches: (position: number) => boolean): number {
  let low = 0;
  let high = snapshot.size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (reaches(snapshot.ascending.price[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
