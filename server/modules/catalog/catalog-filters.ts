import { arrayOf, integer, object, optional, text } from "../shared/shapes";
import { CASE_SIZE_BANDS, WATER_RESISTANCE_MINIMUMS, type CaseSizeBand } from "./watch-specs.shared";

/**
 * The catalogue's filters as SQL (docs/product.md, "Filters"; RULINGS.md, fifth wave): AND across
 * filters, OR within one (two brands = either brand), and a facet's counts apply every filter but
 * its own. Every value travels as a binding, never as SQL text.
 */
export type CatalogFilters = {
  /** Brand slugs (brands.shared.ts). */
  brand: string[];
  minPrice?: number;
  maxPrice?: number;
  movement: string[];
  caseSize: CaseSizeBand[];
  strap: string[];
  dial: string[];
  /** The least water resistance, in metres. */
  waterResistance?: number;
  feature: string[];
};

export const NO_FILTERS: CatalogFilters = {
  brand: [],
  movement: [],
  caseSize: [],
  strap: [],
  dial: [],
  feature: [],
};

/** The filters that have counts beside their options, as the API's `facets` names them. */
export const FACETS = ["brand", "movement", "caseSize", "strap", "dial", "waterResistance", "feature"] as const;
export type Facet = (typeof FACETS)[number];
export type FacetCounts = Record<Facet, { value: string; label: string; count: number }[]>;

type FilterGroup = Facet | "price";

const facetOptionShape = object({
  value: text({ description: "The filter's value, as the query parameter takes it" }),
  label: text({ description: "The option as the catalogue page shows it" }),
  count: integer({ minimum: 1, description: "Products it would give with every other filter applied" }),
});
/** `facets` of GET /products?facets=1: each filter's options that some product has, with counts. */
export const facetsShape = optional(
  object(
    Object.fromEntries(FACETS.map((facet) => [facet, arrayOf(facetOptionShape)])) as Record<
      Facet,
      ReturnType<typeof arrayOf<{ value: string; label: string; count: number }>>
    >,
  ),
);
export type Condition = { sql: string; bindings: (string | number)[] };

/** A list as one SQL array of bindings (knex would spread a list bound to one placeholder). */
function listOf(values: readonly (string | number)[], type: "text" | "int"): Condition {
  return { sql: `ARRAY[${values.map(() => "?").join(", ")}]::${type}[]`, bindings: [...values] };
}

/** `column = ANY (list)`: either of the values. */
function anyOf(column: string, values: string[]): Condition {
  const list = listOf(values, "text");
  return { sql: `${column} = ANY (${list.sql})`, bindings: list.bindings };
}

/** Each case size band as SQL: 36 and 40 are in the band above, 44 in "40–44" (watch-specs.shared.ts). */
export const CASE_SIZE_SQL: Record<CaseSizeBand, string> = {
  "under-36": "case_diameter_mm < 36",
  "36-40": "(case_diameter_mm >= 36 AND case_diameter_mm < 40)",
  "40-44": "(case_diameter_mm >= 40 AND case_diameter_mm <= 44)",
  "over-44": "case_diameter_mm > 44",
};

/** The condition of each filter given, by its group. */
export function filterConditions(filters: CatalogFilters): Map<FilterGroup, Condition> {
  const conditions = new Map<FilterGroup, Condition>();
  if (filters.brand.length > 0) {
    const slugs = anyOf("slug", filters.brand);
    conditions.set("brand", {
      // A semi-join, so that the planner estimates the brands' share from their statistics.
      sql: `brand_id IN (SELECT id FROM brands WHERE ${slugs.sql})`,
      bindings: slugs.bindings,
    });
  }
  const price: string[] = [];
  const priceBindings: number[] = [];
  if (filters.minPrice !== undefined) {
    price.push("price >= ?");
    priceBindings.push(filters.minPrice);
  }
  if (filters.maxPrice !== undefined) {
    price.push("price <= ?");
    priceBindings.push(filters.maxPrice);
  }
  if (price.length > 0) conditions.set("price", { sql: price.join(" AND "), bindings: priceBindings });
  if (filters.movement.length > 0) {
    conditions.set("movement", anyOf("movement", filters.movement));
  }
  if (filters.caseSize.length > 0) {
    conditions.set("caseSize", {
      sql: `(${filters.caseSize.map((band) => CASE_SIZE_SQL[band]).join(" OR ")})`,
      bindings: [],
    });
  }
  if (filters.strap.length > 0) {
    conditions.set("strap", anyOf("strap_material", filters.strap));
  }
  if (filters.dial.length > 0) {
    conditions.set("dial", anyOf("dial_colour", filters.dial));
  }
  if (filters.waterResistance !== undefined) {
    conditions.set("waterResistance", { sql: "water_resistance_m >= ?", bindings: [filters.waterResistance] });
  }
  if (filters.feature.length > 0) {
    const list = listOf(filters.feature, "text");
    conditions.set("feature", { sql: `features && ${list.sql}`, bindings: list.bindings });
  }
  return conditions;
}

export function hasFilters(filters: CatalogFilters): boolean {
  return filterConditions(filters).size > 0;
}

/** The conditions joined with AND, leaving out one group (a facet's own); "true" for none. */
export function whereAll(conditions: Map<FilterGroup, Condition>, base: Condition[], except?: FilterGroup): Condition {
  const all = [...base, ...[...conditions].filter(([group]) => group !== except).map(([, condition]) => condition)];
  if (all.length === 0) return { sql: "true", bindings: [] };
  return { sql: all.map((condition) => condition.sql).join(" AND "), bindings: all.flatMap((c) => c.bindings) };
}

/**
 * Each facet's query: its options and how many products each would give with every other filter
 * applied. One statement each, so that each can use the index that suits its conditions
 * (tests/integration/catalog-plans.test.ts reads their plans).
 */
export function facetQueries(conditions: Map<FilterGroup, Condition>, base: Condition[]): Record<Facet, Condition> {
  const where = (facet: Facet) => whereAll(conditions, base, facet);
  const grouped = (facet: Facet, value: string, notNull: string): Condition => {
    const { sql, bindings } = where(facet);
    return {
      sql: `SELECT ${value} AS value, count(*)::int AS count FROM products WHERE ${notNull} AND ${sql} GROUP BY 1`,
      bindings,
    };
  };
  const brand = where("brand");
  const caseSize = where("caseSize");
  const water = where("waterResistance");
  const minimums = listOf(WATER_RESISTANCE_MINIMUMS, "int");
  const feature = where("feature");
  return {
    brand: {
      sql: `SELECT b.slug AS value, b.name AS label, c.count FROM (
              SELECT brand_id, count(*)::int AS count FROM products WHERE brand_id IS NOT NULL AND ${brand.sql}
              GROUP BY brand_id) c JOIN brands b ON b.id = c.brand_id`,
      bindings: brand.bindings,
    },
    movement: grouped("movement", "movement", "movement IS NOT NULL"),
    caseSize: {
      sql: `SELECT CASE ${CASE_SIZE_BANDS.map((band) => `WHEN ${CASE_SIZE_SQL[band.value]} THEN '${band.value}'`).join(" ")} END AS value,
              count(*)::int AS count FROM products WHERE case_diameter_mm IS NOT NULL AND ${caseSize.sql} GROUP BY 1`,
      bindings: caseSize.bindings,
    },
    strap: grouped("strap", "strap_material", "strap_material IS NOT NULL"),
    dial: grouped("dial", "dial_colour", "dial_colour IS NOT NULL"),
    waterResistance: {
      sql: `SELECT m.value::text AS value, count(*)::int AS count
              FROM products JOIN unnest(${minimums.sql}) AS m(value) ON water_resistance_m >= m.value
             WHERE ${water.sql} GROUP BY m.value`,
      bindings: [...minimums.bindings, ...water.bindings],
    },
    feature: {
      sql: `SELECT f.value, count(*)::int AS count FROM products, unnest(features) AS f(value)
             WHERE features <> '{}' AND ${feature.sql} GROUP BY 1`,
      bindings: feature.bindings,
    },
  };
}
