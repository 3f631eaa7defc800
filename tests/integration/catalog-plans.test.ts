import type { Knex } from "knex";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWatches } from "../../seeds/data/demo-watches";
import { startTestServer, type TestServer } from "../support/test-server";

// What a DBA would look at in a catalogue of 100,000 watches: the queries the catalogue runs for
// each sort, category filter and search, on the first page and a deep one, read through an index
// (never the whole products table) and the index the migrations made for them. The plans are
// PostgreSQL's own (EXPLAIN) for the very queries the store sent (captured from its database
// connection), on a catalogue made like the bench's (bench/database.ts).

const PRODUCTS = 100_000;
const SORT_INDEX: Record<string, string> = {
  "-createdAt": "created_at",
  createdAt: "created_at",
  price: "price",
  "-price": "price",
  name: "lower_name",
  "-name": "lower_name",
};

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
type Scan = { type: string; relation?: string; index?: string };

let server: TestServer;
/** A connection of its own for EXPLAIN: the captured SQL has PostgreSQL's $1 placeholders. */
let explainer: pg.Client;
let sent: { sql: string; bindings: readonly unknown[] }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  await db.raw(
    `INSERT INTO products (name, description, price, category, image_url, stock, brand, created_at, updated_at)
     SELECT w.name || ' ' || g, w.description, round((w.price * (0.8 + (g * 7919 % 400) / 1000.0))::numeric, 0),
            w.category, w.image_url, 1 + g % 60, w.brand, now() - make_interval(mins => g), now()
       FROM generate_series(1, ?) AS g
       JOIN unnest(?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[], ?::text[])
            WITH ORDINALITY AS w(name, brand, description, price, category, image_url, idx)
         ON w.idx = 1 + g % ?`,
    [
      PRODUCTS,
      demoWatches.map((watch) => watch.name),
      demoWatches.map((watch) => watch.brand),
      demoWatches.map((watch) => watch.description),
      demoWatches.map((watch) => watch.price),
      demoWatches.map((watch) => watch.category),
      demoWatches.map((watch) => watch.imageUrl),
      demoWatches.length,
    ],
  );
  // What autovacuum does after such an insert: statistics, and the visibility map that lets a
  // deep page find its start in the index alone.
  await db.raw("VACUUM ANALYZE products");
  explainer = new pg.Client({ connectionString: server.database.url });
  await explainer.connect();
  db.on("query", (query: Knex.Sql) => sent.push({ sql: query.sql, bindings: query.bindings }));
}, 300_000);
afterAll(async () => {
  await explainer?.end();
  await server?.close();
});

/** The queries one list request sends, each with the scans of its plan. */
async function plansOf(query: Record<string, string | number>): Promise<{ sql: string; scans: Scan[] }[]> {
  sent = [];
  await server.services.catalog.listProducts({ limit: 12, ...query });
  // The queries that read products (a total read alone from product_counts is left out), but for
  // the filters' index reading every product, once per catalogue change and beside the requests
  // rather than in one (server/modules/catalog/facet-index.ts).
  const captured = sent.filter(
    (query) => /\bfrom "?products"?(\s|$)/i.test(query.sql) && !INDEX_READING.test(query.sql),
  );
  sent = [];
  // One at a time: the explainer is one connection (a list with counts sends two queries).
  const plans: { sql: string; scans: Scan[] }[] = [];
  for (const { sql, bindings } of captured) {
    const { rows } = await explainer.query(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as unknown[]);
    const scans: Scan[] = [];
    const walk = (node: PlanNode) => {
      if (/Scan/.test(node["Node Type"])) {
        scans.push({ type: node["Node Type"], relation: node["Relation Name"], index: node["Index Name"] });
      }
      node.Plans?.forEach(walk);
    };
    walk(rows[0]["QUERY PLAN"][0].Plan);
    plans.push({ sql, scans });
  }
  return plans;
}

/** The filters' index reading the whole catalogue (facet-index.ts, read()). */
const INDEX_READING = /FROM search_version v LEFT JOIN/;
const onProducts = (scans: Scan[]) => scans.filter((scan) => scan.relation === "products");
const deepPage = Math.floor((PRODUCTS / 12) * 0.9);

describe(`catalogue plans at ${PRODUCTS.toLocaleString("en")} products`, () => {
  for (const category of ["", "Men"]) {
    const filter = category ? "category" : "all";
    describe(`${filter}, no search`, () => {
      for (const sort of Object.keys(SORT_INDEX)) {
        it(`sort ${sort}: page 1 and page ${deepPage} from the sort's index, the total without counting`, async () => {
          // With a category, the sort's index led by the category, or the sort's own index read in
          // order while skipping the other category (the planner's choice when half the rows match).
          const index = new RegExp(`^products_${category ? "(category_)?" : ""}${SORT_INDEX[sort]}_idx$`);
          for (const page of [1, deepPage]) {
            const plans = await plansOf({ sort, category, page });
            // One query: the page, and the total with it from product_counts (migration 19).
            expect(plans, `${sort} page ${page}`).toHaveLength(1);
            expect(plans[0]!.sql).toMatch(/product_counts/);
            const scans = onProducts(plans[0]!.scans);
            expect(scans.length).toBeGreaterThan(0);
            for (const scan of scans) expect(scan, `${sort} page ${page}`).toMatchObject({ index });
            // A deep page finds where it starts in the index alone (no row read for the skipped ones).
            if (page > 1) expect(scans.map((scan) => scan.type)).toContain("Index Only Scan");
          }
        });
      }
    });

    for (const search of ["chrono", "leather strap"]) {
      describe(`${filter}, search "${search}"`, () => {
        for (const sort of ["", ...Object.keys(SORT_INDEX)]) {
          it(`sort ${sort || "best match"}: the matches through the search indexes`, async () => {
            for (const page of [1, 40]) {
              const plans = await plansOf({ sort, category, page, search });
              const scans = plans.flatMap((plan) => onProducts(plan.scans));
              expect(
                scans.filter((scan) => scan.type === "Seq Scan"),
                `${sort} page ${page}`,
              ).toEqual([]);
              expect(scans.map((scan) => scan.type)).toContain("Bitmap Heap Scan");
              const indexes = plans.flatMap((plan) => plan.scans.map((scan) => scan.index));
              expect(indexes).toContain("products_search_text_idx");
              if (search.includes(" ")) expect(indexes).toContain("products_search_vector_idx");
            }
          });
        }
      });
    }
  }
});

/**
 * The facets' queries (server/modules/catalog/catalog-filters.ts) on a catalogue of the same size
 * whose products carry specifications: none reads the products table whole, without a filter
 * (each count an index scan of its column) and with filters.
 */
describe(`facet plans at ${PRODUCTS.toLocaleString("en")} products`, () => {
  beforeAll(async () => {
    await server.database.db.raw(`
      UPDATE products SET
        movement = (ARRAY['Quartz', 'Automatic', 'Solar', 'Manual winding'])[1 + abs(hashtext(id::text)) % 4],
        case_diameter_mm = 30 + abs(hashtext(id::text || 'd')) % 170 / 10.0,
        strap_material = (ARRAY['Leather', 'Stainless steel', 'Rubber', 'Resin'])[1 + abs(hashtext(id::text || 's')) % 4],
        dial_colour = (ARRAY['Black', 'Blue', 'White', 'Green', 'Silver'])[1 + abs(hashtext(id::text || 'c')) % 5],
        water_resistance_m = (ARRAY[30, 50, 100, 200, 300])[1 + abs(hashtext(id::text || 'w')) % 5],
        features = string_to_array((ARRAY['date', 'chronograph,date', '', 'GMT'])[1 + abs(hashtext(id::text || 'f')) % 4], ',')`);
    await server.database.db.raw("VACUUM ANALYZE products");
  }, 300_000);

  for (const [label, query] of [
    ["no filter", { facets: 1 }],
    ["Men, one brand", { facets: 1, category: "Men", brand: "casio" }],
    ["two movements and a size", { facets: 1, movement: ["Automatic", "Solar"], caseSize: "40-44" }],
    ["a feature, a strap and water resistance", { facets: 1, feature: "GMT", strap: "Rubber", waterResistance: 200 }],
  ] as const) {
    it(`${label}: every facet's count and the page through indexes, never a whole read of products`, async () => {
      // A new version, not yet read by the filters' index: the counts come from SQL, whose plans these are.
      await server.database.db.raw("UPDATE search_version SET version = gen_random_uuid()");
      const plans = await plansOf(query as unknown as Record<string, string | number>);
      const facetPlan = plans.find((plan) => /json_agg/.test(plan.sql));
      expect(facetPlan, label).toBeDefined();
      for (const plan of plans) {
        const scans = onProducts(plan.scans);
        expect(scans.length, plan.sql.slice(0, 200)).toBeGreaterThan(0);
        expect(
          scans.filter((scan) => scan.type === "Seq Scan"),
          `${label}: ${plan.sql.slice(0, 200)}`,
        ).toEqual([]);
      }
    });
  }

  it("a filtered page newest first, oldest first or by price, from memory: only its products read, by their ids", async () => {
    await server.services.catalog.refreshFacetIndex();
    for (const sort of ["-createdAt", "createdAt", "price", "-price"]) {
      const plans = await plansOf({ facets: 1, sort, movement: "Automatic", caseSize: "40-44", minPrice: 1, page: 3 });
      // One query: the page's twelve rows through the primary key, with the search version.
      expect(plans, sort).toHaveLength(1);
      const scans = onProducts(plans[0]!.scans);
      expect(scans.length, sort).toBeGreaterThan(0);
      for (const scan of scans) expect(scan, sort).toMatchObject({ index: "products_pkey" });
    }
  });

  it("counted in memory: no counting in SQL, and a search's matches through the search indexes", async () => {
    await server.services.catalog.refreshFacetIndex();
    const plans = await plansOf({ facets: 1, search: "chrono", movement: "Automatic" });
    expect(plans.filter((plan) => /json_agg/.test(plan.sql))).toEqual([]);
    const matches = plans.find((plan) => /ARRAY\(SELECT id FROM products WHERE/.test(plan.sql));
    expect(matches).toBeDefined();
    expect(onProducts(matches!.scans).filter((scan) => scan.type === "Seq Scan")).toEqual([]);
    expect(matches!.scans.map((scan) => scan.index)).toContain("products_search_text_idx");
  });
});
