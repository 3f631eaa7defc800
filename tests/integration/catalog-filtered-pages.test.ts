import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// A filtered page newest first, oldest first or by price comes from the filters' index in memory
// (server/modules/catalog/facet-view.ts), its total from the same pass; the name orders and a
// search's best match from SQL. Whichever answers, the page and total are PostgreSQL's: the
// products its ORDER BY puts there, ties broken by id, as the list read in SQL gives them while
// the index is behind.

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
});
afterAll(async () => {
  await server?.close();
});

const BRANDS = ["Casio", "Seiko", "Orient"];
const MOVEMENTS = ["Quartz", "Automatic"] as const;
const FEATURES = ["date", "GMT"] as const;
/** Few instants and prices, so that many products tie on the sort key and the id decides. */
const INSTANTS = [0, 1, 2].map((minute) => new Date(Date.UTC(2026, 0, 1, 0, minute)));
const PRICES = [5000, 7500, 12000];
const SORTS = ["-createdAt", "createdAt", "price", "-price", "name", "-name", ""] as const;
const SQL_ORDER: Record<(typeof SORTS)[number], string> = {
  "-createdAt": "created_at DESC, id DESC",
  createdAt: "created_at ASC, id ASC",
  price: "price ASC, id ASC",
  "-price": "price DESC, id DESC",
  name: "lower(name) ASC, id ASC",
  "-name": "lower(name) DESC, id DESC",
  // The default order without a search.
  "": "created_at DESC, id DESC",
};

type Watch = {
  name: string;
  brand: string;
  category: "Men" | "Women";
  price: number;
  createdAt: Date;
  movement: (typeof MOVEMENTS)[number] | null;
  waterResistanceM: number | null;
  features: (typeof FEATURES)[number][];
};

const watchArbitrary = (index: number): fc.Arbitrary<Watch> =>
  fc.record({
    name: fc.constant(`Watch ${index}`),
    brand: fc.constantFrom(...BRANDS),
    category: fc.constantFrom("Men" as const, "Women" as const),
    price: fc.constantFrom(...PRICES),
    createdAt: fc.constantFrom(...INSTANTS),
    movement: fc.option(fc.constantFrom(...MOVEMENTS), { nil: null }),
    waterResistanceM: fc.option(fc.constantFrom(30, 100, 200), { nil: null }),
    features: fc.subarray([...FEATURES]),
  });

type View = {
  category?: "Men" | "Women";
  brand: string[];
  minPrice?: number;
  maxPrice?: number;
  movement: string[];
  waterResistance?: number;
  feature: string[];
  sort: (typeof SORTS)[number];
  limit: number;
  page: number;
};

const viewArbitrary: fc.Arbitrary<View> = fc.record(
  {
    category: fc.constantFrom("Men" as const, "Women" as const),
    brand: fc.subarray(["casio", "seiko", "orient"], { maxLength: 2 }),
    minPrice: fc.constantFrom(1, 5000, 7500),
    maxPrice: fc.constantFrom(7500, 12000, 100),
    movement: fc.subarray<string>([...MOVEMENTS], { maxLength: 1 }),
    waterResistance: fc.constantFrom(50, 100, 200),
    feature: fc.subarray<string>([...FEATURES], { maxLength: 1 }),
    sort: fc.constantFrom(...SORTS),
    limit: fc.integer({ min: 1, max: 7 }),
    page: fc.integer({ min: 1, max: 12 }),
  },
  { requiredKeys: ["brand", "movement", "feature", "sort", "limit", "page"] },
);

/** Whether a watch passes every filter of the view, by the rule as the issue states it. */
function passes(watch: Watch, view: View): boolean {
  return (
    (!view.category || watch.category === view.category) &&
    (view.brand.length === 0 || view.brand.includes(watch.brand.toLowerCase())) &&
    (view.minPrice === undefined || watch.price >= view.minPrice) &&
    (view.maxPrice === undefined || watch.price <= view.maxPrice) &&
    (view.movement.length === 0 || view.movement.includes(watch.movement ?? "")) &&
    (view.waterResistance === undefined || (watch.waterResistanceM ?? -1) >= view.waterResistance) &&
    (view.feature.length === 0 || view.feature.some((feature) => (watch.features as string[]).includes(feature)))
  );
}

function queryOf(view: View): string {
  const params = new URLSearchParams({ facets: "1" });
  for (const [name, value] of Object.entries(view)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, item);
    else if (value !== undefined && value !== "") params.set(name, String(value));
  }
  return params.toString();
}

/** The view's page and total as PostgreSQL orders the whole catalogue, the filters applied by brute force. */
async function expectedPage(watches: Watch[], view: View) {
  const { rows } = await server.database.db.raw<{ rows: { name: string }[] }>(
    `SELECT name FROM products ORDER BY ${SQL_ORDER[view.sort]}`,
  );
  const byName = new Map(watches.map((watch) => [watch.name, watch]));
  const matching = rows.map((row) => row.name).filter((name) => passes(byName.get(name)!, view));
  const from = (view.page - 1) * view.limit;
  return { names: matching.slice(from, from + view.limit), total: matching.length };
}

async function listed(view: View) {
  const response = await client.api("GET", `/products?${queryOf(view)}`);
  expect(response.status, queryOf(view)).toBe(200);
  return {
    names: response.body.data.map((product: { name: string }) => product.name),
    total: response.body.pagination.total,
  };
}

describe("filtered pages", () => {
  it("are the page and total PostgreSQL's ORDER BY gives, for random filters, sorts and pages, with the index current and behind", async () => {
    const catalogue = fc.tuple(...Array.from({ length: 30 }, (_, index) => watchArbitrary(index)));
    await fc.assert(
      fc.asyncProperty(catalogue, fc.array(viewArbitrary, { minLength: 10, maxLength: 10 }), async (watches, views) => {
        await server.database.db("products").del();
        await insertProducts(server, watches);
        for (const view of views) {
          const expected = await expectedPage(watches, view);
          // A new version and no reading since: the index is behind, and the list comes from SQL.
          await server.database.db("search_version").update({ version: server.database.db.raw("gen_random_uuid()") });
          expect(await listed(view), `behind: ${queryOf(view)}`).toEqual(expected);
          // Read at the version now: the index answers the orders it keeps.
          await server.services.catalog.refreshFacetIndex();
          expect(await listed(view), `current: ${queryOf(view)}`).toEqual(expected);
          // The last page, and one past it (empty, with the total still told).
          const pages = Math.max(1, Math.ceil(expected.total / view.limit));
          for (const page of [pages, pages + 1]) {
            expect(await listed({ ...view, page }), `page ${page}: ${queryOf(view)}`).toEqual(
              await expectedPage(watches, { ...view, page }),
            );
          }
        }
      }),
      { numRuns: 6 },
    );
    // Six catalogues, each with some 40 views asked twice: half a minute on a quiet machine.
  }, 180_000);
});
