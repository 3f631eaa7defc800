import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { demoWatches } from "../seeds/data/demo-watches";
import { demoWatchSpecs } from "../seeds/data/demo-watch-specs";
import { walArchiveSettings } from "../server/backups/wal-archive";
import { connectDatabase, migrateToLatest } from "../server/db/database";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres";
import { createDatabaseIfMissing } from "../server/db/open-database";
import { hashPassword } from "../server/modules/accounts/passwords";
import { CatalogService } from "../server/modules/catalog/catalog.service";
import { storeDetails } from "../server/store-details";

/**
 * The bench's own database: a fresh one in BENCH_DATABASE_URL's server (a maintenance database
 * URL, like TEST_DATABASE_URL), or an embedded PostgreSQL cluster in a temporary directory.
 * Migrated with the store's migrations and filled with SQL (generate_series), not through HTTP.
 */
export type BenchDatabase = {
  url: string;
  db: Knex;
  /** The postmaster's pid when the cluster is ours (its CPU time is then measured). */
  postmasterPid: number | null;
  close(): Promise<void>;
};

export async function openBenchDatabase(options: { keep: boolean }): Promise<BenchDatabase> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let tempDir: string | null = null;
  let stopCluster = async () => {};
  let clusterDir: string | null = null;
  const name = `waqt_bench_${crypto.randomBytes(4).toString("hex")}`;
  let url: URL;
  if (!adminUrl) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-bench-"));
    clusterDir = path.join(tempDir, "postgres");
    // Archiving its WAL as the store's embedded default does, so checkout pays what it pays there.
    const walDir = path.join(tempDir, "wal-archive");
    const cluster = await startEmbeddedPostgres(clusterDir, () => {}, {
      settings: walArchiveSettings(walDir),
      writableDirs: [walDir],
    });
    adminUrl = cluster.adminUrl;
    stopCluster = () => cluster.stop();
    // The store's own role, as on the embedded default (server/db/store-role.ts).
    await cluster.prepareStoreDatabase(name, { create: true });
    url = new URL(cluster.storeUrlFor(name));
  } else {
    await createDatabaseIfMissing(adminUrl, name);
    url = new URL(adminUrl);
    url.pathname = `/${name}`;
  }
  const db = connectDatabase(url.href, { poolMax: 4 });
  await migrateToLatest(db);
  const postmasterPid = clusterDir ? readPostmasterPid(clusterDir) : null;
  return {
    url: url.href,
    db,
    postmasterPid,
    async close() {
      await db.destroy();
      if (options.keep) {
        // Never the URL: it holds the cluster's password (kept in its folder, server/db/cluster-credentials.ts).
        console.log(`kept: database ${name}${tempDir ? ` (cluster in ${tempDir}, stopped)` : ""}`);
      } else if (!tempDir) {
        const admin = knexFactory({ client: "pg", connection: adminUrl });
        await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.destroy());
      }
      await stopCluster();
      if (tempDir && !options.keep) fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

function readPostmasterPid(clusterDir: string): number | null {
  try {
    return (
      Number.parseInt(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]!, 10) || null
    );
  } catch {
    return null;
  }
}

export type SeedPlan = {
  products: number;
  /** Customers besides the browsers and shoppers below. */
  users: number;
  orders: number;
  /** Users with a cart of three lines, for GET /cart. */
  browsers: number;
  /** Users whose cart holds one to three lines of the checkout products, for the checkout scenario. */
  checkoutShoppers: number;
  /** Users with an empty cart, for the last-units check. */
  lastUnitShoppers: number;
};

export type Seeded = SeedPlan & {
  password: string;
  browserEmails: string[];
  checkoutEmails: string[];
  lastUnitEmails: string[];
  /** Products with plenty of stock, bought by the checkout scenario. */
  checkoutProductIds: string[];
  /** Some product ids, for GET /products/{id}. */
  sampleProductIds: string[];
  seconds: number;
};

export const BENCH_PASSWORD = "bench-password-1";
const EDITIONS = ["Heritage", "Limited", "Sport", "Classic", "Reserve", "Atelier", "Expedition", "Signature"];

/**
 * Products from the demo watches (names, brands, descriptions, images) with an edition and a
 * number; every 17th out of stock; every 50th with plenty of stock for the checkout scenario.
 * Users, their carts and an order history, all in a few INSERT … SELECT statements.
 * Users share one bcrypt hash (work factor 4: log-ins are set-up here, not measured).
 */
export async function seedBenchData(db: Knex, plan: SeedPlan): Promise<Seeded> {
  const started = Date.now();
  const watches = demoWatches;
  await db.raw(
    `INSERT INTO products (name, description, price, category, image_url, stock, brand, created_at, updated_at,
                           movement, case_diameter_mm, strap_material, dial_colour, water_resistance_m, features)
     SELECT w.name || ' ' || (?::text[])[1 + (g / ?) % ?] || ' ' || g,
            w.description,
            round((w.price * (0.8 + ((g * 7919) % 400) / 1000.0))::numeric, 0),
            w.category, w.image_url,
            CASE WHEN g % 50 = 0 THEN 1000000 WHEN g % 17 = 0 THEN 0 ELSE 1 + (g * 31) % 60 END,
            w.brand,
            now() - make_interval(mins => g), now() - make_interval(mins => g),
            w.movement, w.case_diameter_mm, w.strap_material, w.dial_colour, w.water_resistance_m,
            -- A watch with no features has an empty list (the column is NOT NULL), not NULL.
            coalesce(string_to_array(nullif(w.features, ''), ','), '{}')
       FROM generate_series(1, ?) AS g
       JOIN unnest(?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[], ?::text[],
                   ?::text[], ?::numeric[], ?::text[], ?::text[], ?::int[], ?::text[])
            WITH ORDINALITY AS w(name, brand, description, price, category, image_url,
                                 movement, case_diameter_mm, strap_material, dial_colour, water_resistance_m, features, idx)
         ON w.idx = 1 + g % ?`,
    [
      EDITIONS,
      watches.length,
      EDITIONS.length,
      plan.products,
      watches.map((watch) => watch.name),
      watches.map((watch) => watch.brand),
      watches.map((watch) => watch.description),
      watches.map((watch) => watch.price),
      watches.map((watch) => watch.category),
      watches.map((watch) => watch.imageUrl),
      // The demo watches' specifications, for the filters' scenario.
      watches.map((watch) => demoWatchSpecs[watch.slug]?.movement ?? null) as unknown as string[],
      watches.map((watch) => demoWatchSpecs[watch.slug]?.caseDiameterMm ?? null) as unknown as string[],
      watches.map((watch) => demoWatchSpecs[watch.slug]?.strapMaterial ?? null) as unknown as string[],
      watches.map((watch) => demoWatchSpecs[watch.slug]?.dialColour ?? null) as unknown as string[],
      watches.map((watch) => demoWatchSpecs[watch.slug]?.waterResistanceM ?? null) as unknown as string[],
      watches.map((watch) => (demoWatchSpecs[watch.slug]?.features ?? []).join(",")),
      watches.length,
    ],
  );

  const passwordHash = await hashPassword(BENCH_PASSWORD, 4);
  await db.raw(
    `INSERT INTO users (name, email, password_hash, role, phone, street, city, state, zip_code, created_at)
     SELECT 'Bench Customer ' || g, 'customer' || g || '@bench.waqt.pk', ?, 'customer', '+92 300 ' || lpad(g::text, 7, '0'),
            g || ' Mall Road', 'Lahore', 'Punjab', '54000', now() - make_interval(hours => g)
       FROM generate_series(1, ?) AS g`,
    [passwordHash, plan.browsers + plan.checkoutShoppers + plan.lastUnitShoppers + plan.users],
  );
  const firstCheckout = plan.browsers + 1;
  const firstLastUnits = firstCheckout + plan.checkoutShoppers;
  const firstOther = firstLastUnits + plan.lastUnitShoppers;
  // Users are numbered: browsers, checkout shoppers, last-unit shoppers, then everyone else.
  // Browsers and everyone else get three lines of ordinary products.
  await db.raw(`INSERT INTO carts (user_id) SELECT id FROM users`);
  await db.raw(
    `WITH numbered AS (
       SELECT c.id AS cart_id, substring(u.email from 'customer(\\d+)@')::int AS n
         FROM carts c JOIN users u ON u.id = c.user_id),
     stocked AS (
       SELECT id, row_number() OVER (ORDER BY id) AS k FROM products WHERE stock BETWEEN 3 AND 1000),
     lines AS (
       SELECT numbered.cart_id, 1 + (numbered.n * 3 + line) % (SELECT count(*) FROM stocked) AS k
         FROM numbered CROSS JOIN generate_series(0, 2) AS line
        WHERE numbered.n < ? OR numbered.n >= ?)
     INSERT INTO cart_items (cart_id, product_id, quantity)
     SELECT lines.cart_id, stocked.id, 1 FROM lines JOIN stocked ON stocked.k = lines.k`,
    [firstCheckout, firstOther],
  );
  // Checkout shoppers: one to three lines (one or two units each) of the well-stocked products.
  await db.raw(
    `WITH numbered AS (
       SELECT c.id AS cart_id, substring(u.email from 'customer(\\d+)@')::int AS n
         FROM carts c JOIN users u ON u.id = c.user_id),
     pool AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM products WHERE stock >= 1000000),
     lines AS (
       SELECT DISTINCT ON (numbered.cart_id, 1 + (numbered.n * 7 + line * 13) % (SELECT count(*) FROM pool))
              numbered.cart_id, numbered.n, line, 1 + (numbered.n * 7 + line * 13) % (SELECT count(*) FROM pool) AS k
         FROM numbered CROSS JOIN generate_series(0, 2) AS line
        WHERE numbered.n >= ? AND numbered.n < ? AND line <= numbered.n % 3)
     INSERT INTO cart_items (cart_id, product_id, quantity)
     SELECT lines.cart_id, pool.id, 1 + (lines.n + lines.line) % 2 FROM lines JOIN pool ON pool.k = lines.k`,
    [firstCheckout, firstLastUnits],
  );

  // Order history: delivered and pending orders of two lines each, prices copied as checkout does.
  // (The joins are on keys computed from constants, so that PostgreSQL can hash them.)
  await db.raw(
    `WITH customers AS (SELECT id, name, email, row_number() OVER (ORDER BY email) AS k FROM users),
     catalogue AS (SELECT id, name, image_url, price, row_number() OVER (ORDER BY id) AS k FROM products),
     made AS (
       INSERT INTO orders (user_id, customer_name, customer_email, street, city, state, zip_code, country,
                           total_price, status, created_at, updated_at)
       SELECT c.id, c.name, c.email, '1 Mall Road', 'Lahore', 'Punjab', '54000', 'Pakistan', 0,
              (ARRAY['Pending','Shipped','Delivered','Delivered','Cancelled'])[1 + o.g % 5],
              now() - make_interval(hours => o.g), now() - make_interval(hours => o.g)
         FROM (SELECT g, 1 + g % (SELECT count(*) FROM users) AS k FROM generate_series(1, ?) AS g) AS o
         JOIN customers c ON c.k = o.k
       RETURNING id, created_at),
     items AS (
       SELECT made.id AS order_id, line, 1 + (made.k * 2 + line) % (SELECT count(*) FROM products) AS k
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS k FROM made) AS made
         CROSS JOIN generate_series(0, 1) AS line)
     INSERT INTO order_items (order_id, product_id, product_name, product_image_url, quantity, unit_price, position)
     SELECT items.order_id, p.id, p.name, p.image_url, 1 + items.line, p.price, items.line
       FROM items JOIN catalogue p ON p.k = items.k`,
    [plan.orders],
  );
  await db.raw(
    `UPDATE orders o SET total_price = t.total
       FROM (SELECT order_id, sum(unit_price * quantity) AS total FROM order_items GROUP BY order_id) t
      WHERE t.order_id = o.id`,
  );
  // VACUUM as autovacuum would soon after such inserts: it moves the GIN indexes' pending entries
  // into the index proper, without which the planner prices the search indexes too high.
  await db.raw("VACUUM ANALYZE");

  const emails = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => `customer${from + index}@bench.waqt.pk`);
  const checkoutProductIds = (await db("products").where("stock", ">=", 1000000).orderBy("id").select("id")).map(
    (row: { id: string }) => row.id,
  );
  const sampleProductIds = (await db.raw("SELECT id FROM products ORDER BY md5(id::text) LIMIT 500")).rows.map(
    (row: { id: string }) => row.id,
  );
  return {
    ...plan,
    password: BENCH_PASSWORD,
    browserEmails: emails(1, plan.browsers),
    checkoutEmails: emails(firstCheckout, plan.checkoutShoppers),
    lastUnitEmails: emails(firstLastUnits, plan.lastUnitShoppers),
    checkoutProductIds,
    sampleProductIds,
    seconds: (Date.now() - started) / 1000,
  };
}

export type SearchTermTiming = { term: string; matches: number; ms: number; againMs: number };

/**
 * What each search term costs, before any load: the catalogue service's own queries (a page of
 * results and the count of all matches), run here on an idle database. `ms` is a term never
 * searched before (no search cache: every round searches), `againMs` the same search again, from
 * the search cache (server/modules/catalog/search-cache.ts) while the catalogue is unchanged.
 */
export async function timeSearchTerms(db: Knex, terms: string[], rounds = 10): Promise<SearchTermTiming[]> {
  // Listing writes no mail: the mail context is never read here.
  const mail = { store: storeDetails(), publicUrl: "http://localhost" };
  const neverSeen = new CatalogService(db, mail, { searchCache: null });
  const cached = new CatalogService(db, mail);
  const timings: SearchTermTiming[] = [];
  const time = async (catalog: CatalogService, term: string) => {
    const started = performance.now();
    for (let round = 0; round < rounds; round++) await catalog.listProducts({ search: term, page: 1, limit: 12 });
    return (performance.now() - started) / rounds;
  };
  for (const term of terms) {
    const { pagination } = await neverSeen.listProducts({ search: term, page: 1, limit: 12 });
    await cached.listProducts({ search: term, page: 1, limit: 12 });
    timings.push({
      term,
      matches: pagination.total,
      ms: await time(neverSeen, term),
      againMs: await time(cached, term),
    });
  }
  return timings;
}
