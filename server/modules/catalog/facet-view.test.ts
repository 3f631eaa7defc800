import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_FILTERS } from "./catalog-filters";
import { snapshotOf, type ProductRow } from "./facet-index";
import { passView } from "./facet-view";

/**
 * The filters' counting pass (facet-view.ts) on catalogues of thousands of products in a few
 * groups, where a price range is counted per group by binary search rather than product by
 * product: the total, the page and the counts must be those of a brute force over the products.
 * (The catalogue-wide property test, tests/integration/catalog-filters.test.ts, uses catalogues too
 * small to take that way.)
 */
type Watch = { id: string; brand: string; movement: string; price: number };

const BRANDS = ["casio", "seiko", "tissot"];
const MOVEMENTS = ["Quartz", "Automatic"];

function rowsOf(watches: Watch[]): ProductRow[] {
  // Places by price then id, as PostgreSQL's row_number() OVER (ORDER BY price, id) gives them.
  const byPrice = [...watches.keys()].sort(
    (a, b) => watches[a]!.price - watches[b]!.price || (watches[a]!.id < watches[b]!.id ? -1 : 1),
  );
  const places = new Map(byPrice.map((index, place) => [index, place]));
  return watches.map((watch, index) => ({
    version: "v1",
    id: watch.id,
    category: "Men",
    price: watch.price,
    price_place: places.get(index)!,
    brand_slug: watch.brand,
    brand_name: watch.brand.toUpperCase(),
    movement: watch.movement,
    case_size: null,
    strap_material: null,
    dial_colour: null,
    water_resistance_m: null,
    features: [],
  }));
}

const catalogue = fc
  .array(
    fc.record({
      brand: fc.constantFrom(...BRANDS),
      movement: fc.constantFrom(...MOVEMENTS),
      price: fc.integer({ min: 1, max: 5000 }),
    }),
    { minLength: 1500, maxLength: 3000 },
  )
  .map((watches) =>
    watches.map((watch, index) => ({ ...watch, id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}` })),
  );

const view = fc.record({
  brand: fc.subarray(BRANDS),
  movement: fc.subarray(MOVEMENTS),
  minPrice: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  maxPrice: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  descending: fc.boolean(),
  offset: fc.integer({ min: 0, max: 60 }),
});

describe("passView on thousands of products in a few groups", () => {
  it("counts a price range, its total and its page as a brute force does", () => {
    fc.assert(
      fc.property(catalogue, view, (watches, asked) => {
        const snapshot = snapshotOf("v1", rowsOf(watches));
        const filters = {
          ...NO_FILTERS,
          brand: asked.brand,
          movement: asked.movement,
          minPrice: asked.minPrice,
          maxPrice: asked.maxPrice,
        };
        const inPrice = (watch: Watch) =>
          (asked.minPrice === undefined || watch.price >= asked.minPrice) &&
          (asked.maxPrice === undefined || watch.price <= asked.maxPrice);
        const brandPasses = (watch: Watch) => asked.brand.length === 0 || asked.brand.includes(watch.brand);
        const movementPasses = (watch: Watch) => asked.movement.length === 0 || asked.movement.includes(watch.movement);
        const passing = watches.filter((watch) => inPrice(watch) && brandPasses(watch) && movementPasses(watch));

        const pass = passView(snapshot, filters, undefined, null, {
          order: "createdAt",
          descending: asked.descending,
          offset: asked.offset,
          limit: 12,
        });

        expect(pass.total).toBe(passing.length);
        const inOrder = asked.descending ? [...passing].reverse() : passing;
        expect(pass.ids).toEqual(inOrder.slice(asked.offset, asked.offset + 12).map((watch) => watch.id));
        const counted = (rows: { value: string; count: number }[]) =>
          Object.fromEntries(rows.map((row) => [row.value, row.count]));
        const countBy = (list: Watch[], key: "brand" | "movement") => {
          const counts: Record<string, number> = {};
          for (const watch of list) counts[watch[key]] = (counts[watch[key]] ?? 0) + 1;
          return counts;
        };
        expect(counted(pass.counts.brand)).toEqual(
          countBy(
            watches.filter((watch) => inPrice(watch) && movementPasses(watch)),
            "brand",
          ),
        );
        expect(counted(pass.counts.movement)).toEqual(
          countBy(
            watches.filter((watch) => inPrice(watch) && brandPasses(watch)),
            "movement",
          ),
        );
      }),
      { numRuns: 60 },
    );
  });
});
