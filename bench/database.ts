import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { demoWatches } from "../seeds/data/demo-watches";
import { demoWatchSpecs } from "../seeds/data/demo-watch-specs";
import { walArchiveSettings } from "../server/backups/wal-archive";
import { connectDatabase } from "../server/db/database";
import { migrateToLatest } from "../server/jobs/migrate";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres";
import { createDatabaseIfMissing } from "../server/start-up/open-database";
import { hashPassword } from "../server/modules/accounts/passwords";
import { CatalogService } from "../server/modules/catalog/catalog.service";
import { storeDetails } from "../server/settings/store-details";

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
  /** With `statementStats`: the statements' counters (pg_stat_statements), nested ones included. */
  statementStats: StatementStats | null;
  /**
   * The WAL segments PostgreSQL has finished and not yet archived (the `.ready` files of its
   * pg_wal/archive_status): each is a node process compressing 16 MB beside the rows measured.
   * Always 0 on a server of BENCH_DATABASE_URL, whose archiving is not the bench's.
   */
  segmentsToArchive(): number;
  close(): Promise<void>;
};

/** pg_stat_statements on the bench's own cluster, read and reset as its superuser. */
export type StatementStats = {
  reset(): Promise<void>;
  /** The statements by total execution time, most first: every query of every connection since the reset. */
  top(limit: number): Promise<StatementStat[]>;
};

export type StatementStat = { query: string; calls: number; totalMs: number; rows: number; topLevel: boolean };

export async function openBenchDatabase(options: { keep: boolean; statementStats?: boolean }): Promise<BenchDatabase> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let tempDir: string | null = null;
  let stopCluster = async () => {};
  let clusterDir: string | null = null;
  const name = `waqt_bench_${crypto.randomBytes(4).toString("hex")}`;
  let url: URL;
  let superuserUrl: string | null = null;
  if (options.statementStats && adminUrl)
    throw new Error("statement counts need the embedded cluster (no BENCH_DATABASE_URL)");
  if (!adminUrl) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-bench-"));
    clusterDir = path.join(tempDir, "postgres");
    // Archiving its WAL as the store's embedded default does, so checkout pays what it pays there.
    const walDir = path.join(tempDir, "wal-archive");
    const cluster = await startEmbeddedPostgres(clusterDir, () => {}, {
      settings: {
        ...walArchiveSettings(walDir),
        // Statements run by triggers and functions are counted apart from the one that ran them.
        ...(options.statementStats
          ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" }
          : {}),
      },
      writableDirs: [walDir],
    });
    adminUrl = cluster.adminUrl;
    stopCluster = () => cluster.stop();
    // The store's own role, as on the embedded default (server/db/store-role.ts).
    await cluster.prepareStoreDatabase(name, { create: true });
    url = new URL(cluster.storeUrlFor(name));
    if (options.statementStats) superuserUrl = cluster.superuserUrlFor(name);
  } else {
    await createDatabaseIfMissing(adminUrl, name);
    url = new URL(adminUrl);
    url.pathname = `/${name}`;
  }
  const db = connectDatabase(url.href, { poolMax: 4 });
  await migrateToLatest(db);
  const postmasterPid = clusterDir ? readPostmasterPid(clusterDir) : null;
  const superuser = superuserUrl
    ? knexFactory({ client: "pg", connection: superuserUrl, pool: { min: 0, max: 1 } })
    : null;
  if (superuser) await superuser.raw("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return {
    url: url.href,
    db,
    postmasterPid,
    statementStats: superuser
      ? {
          async reset() {
            await superuser.raw("SELECT pg_stat_statements_reset()");
          },
          async top(limit) {
            const { rows } = await superuser.raw(
              `SELECT query, calls::int AS calls, total_exec_time AS "totalMs", rows::int AS rows, toplevel AS "topLevel"
                 FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                ORDER BY total_exec_time DESC LIMIT ?`,
              [limit],
            );
            return rows as StatementStat[];
          },
        }
      : null,
    segmentsToArchive() {
      if (!clusterDir) return 0;
      const statusDir = path.join(clusterDir, "pg_wal", "archive_status");
      return fs.readdirSync(statusDir).filter((name) => name.endsWith(".ready")).length;
    },
    async close() {
      await superuser?.destroy();
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

/** The cities typed at checkout, in the cases and spaces customers type them. */
const REPORT_CITIES = [
  "Lahore",
  "Karachi",
  "karachi",
  "Islamabad",
  "Rawalpindi",
  "Faisalabad",
  "Multan ",
  "Peshawar",
  "LAHORE",
];
const REPORT_COURIERS = ["TCS", "Leopards", "M&P", "Trax", "PostEx"];
const RETURN_REASONS = ["Changed my mind", "Damaged or defective", "Not as described", "Wrong item", "Other"];
const OUTCOME_REASONS = ["Refused at the door", "Customer not reachable", "Wrong address", "Other"];

/**
 * The reports' order history (docs/product.md, "Reports"): `orders` orders over the year ending
 * now, evenly spread in time so that every Karachi day has its share, of one or two lines from the
 * catalogue already seeded. Order g's number picks each trait, so every mix occurs: a tenth
 * Pending, a tenth Shipped, half Delivered, the rest Cancelled (a third of those returned to
 * sender, some received back); a quarter paid in advance by bank transfer (verified once shipped;
 * Pending ones awaiting, submitted or verified; Cancelled ones rejected or verified); nine cities;
 * five couriers once shipped; a mobile number on nine in ten, asked to confirm, answered on any
 * channel or not; one in nine with a discount code (three codes); one delivered order in twelve
 * with a return (requested, approved, rejected or received and refunded).
 */
export async function seedReportOrders(db: Knex, orders: number): Promise<{ orders: number; seconds: number }> {
  const started = Date.now();
  await db("discount_codes")
    .insert([
      { code: "EID500", type: "fixed", value: 500 },
      { code: "WINTER15", type: "percent", value: 15 },
    ])
    .onConflict("code")
    .ignore();
  await db.raw(
    `WITH codes AS (SELECT id, code, row_number() OVER (ORDER BY code) AS k FROM discount_codes
                     WHERE code IN ('FIRST10', 'EID500', 'WINTER15')),
     catalogue AS (SELECT id, name, image_url, price, row_number() OVER (ORDER BY id) AS k FROM products),
     traits AS (
       SELECT g,
              now() - make_interval(secs => g * (365 * 86400.0 / ?)) AS created_at,
              (ARRAY['Pending','Shipped','Delivered','Delivered','Delivered','Delivered','Delivered',
                     'Cancelled','Cancelled','Cancelled'])[1 + g % 10] AS status,
              g % 4 = 0 AS transfer,
              g % 10 <> 5 AS with_phone
         FROM generate_series(1, ?) AS g),
     answered AS (
       SELECT traits.*,
              CASE WHEN NOT with_phone THEN 'pending'
                   WHEN status = 'Cancelled' AND g % 3 = 1 THEN 'cancelled'
                   WHEN status IN ('Pending', 'Cancelled') AND g % 3 <> 2 THEN 'pending'
                   ELSE 'confirmed' END AS answer
         FROM traits),
     made AS (
       INSERT INTO orders (customer_name, customer_email, phone, street, city, state, zip_code, country,
                           total_price, status, payment_method, payment_status, payment_reference,
                           payment_verified_at, courier, delivered_at, outcome_kind, outcome_reason, outcome_at,
                           received_back_at, cancelled_by_customer, confirmation_status, confirmation_by,
                           confirmation_channel, confirmation_at, discount_code_id, discount_code,
                           created_at, updated_at)
       SELECT 'Report Customer ' || t.g, 'report' || t.g || '@bench.waqt.pk',
              CASE WHEN t.with_phone THEN '+923' || lpad((t.g * 7919 % 1000000000)::text, 9, '0') END,
              t.g || ' Main Boulevard', (?::text[])[1 + t.g % ?], 'Punjab', '54000', 'Pakistan', 0, t.status,
              CASE WHEN t.transfer THEN 'Bank Transfer' ELSE 'Cash on Delivery' END,
              CASE WHEN NOT t.transfer THEN 'on-delivery'
                   WHEN t.status IN ('Shipped', 'Delivered') THEN 'verified'
                   WHEN t.status = 'Pending' THEN (ARRAY['awaiting','submitted','verified'])[1 + (t.g / 4) % 3]
                   ELSE (ARRAY['rejected','verified'])[1 + (t.g / 4) % 2] END AS payment_status,
              CASE WHEN t.transfer THEN 'FT' || t.g END,
              NULL,
              CASE WHEN t.status IN ('Shipped', 'Delivered') OR (t.status = 'Cancelled' AND t.g % 3 = 0)
                   THEN (?::text[])[1 + (t.g / 10) % ?] END,
              CASE WHEN t.status = 'Delivered' THEN t.created_at + interval '3 days' END,
              CASE WHEN t.status = 'Cancelled' AND t.g % 3 = 0 THEN 'returned' END,
              CASE WHEN t.status = 'Cancelled' AND t.g % 3 = 0 THEN (?::text[])[1 + t.g % ?] END,
              CASE WHEN t.status = 'Cancelled' AND t.g % 3 = 0 THEN t.created_at + interval '4 days' END,
              CASE WHEN t.status = 'Cancelled' AND t.g % 6 = 0 THEN t.created_at + interval '8 days' END,
              t.status = 'Cancelled' AND t.g % 3 = 1 AND t.with_phone,
              t.answer,
              CASE WHEN t.answer = 'confirmed' THEN (ARRAY['customer','customer','customer','admin'])[1 + t.g % 4]
                   WHEN t.answer = 'cancelled' THEN 'customer' END,
              CASE WHEN t.answer = 'confirmed' THEN (ARRAY['whatsapp','sms','link','phone'])[1 + (t.g / 7) % 4]
                   WHEN t.answer = 'cancelled' THEN 'link' END,
              CASE WHEN t.answer <> 'pending' THEN t.created_at + make_interval(mins => 5 + t.g % 240) END,
              CASE WHEN t.g % 9 = 0 THEN (SELECT id FROM codes WHERE codes.k = 1 + (t.g / 9) % 3) END,
              CASE WHEN t.g % 9 = 0 THEN (SELECT code FROM codes WHERE codes.k = 1 + (t.g / 9) % 3) END,
              t.created_at, t.created_at
         FROM answered t
       RETURNING id, created_at),
     items AS (
       SELECT made.id AS order_id, line, 1 + (made.k * 2 + line) % (SELECT count(*) FROM catalogue) AS k
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS k FROM made) AS made
         CROSS JOIN generate_series(0, 1) AS line
        WHERE line = 0 OR made.k % 3 = 0)
     INSERT INTO order_items (order_id, product_id, product_name, product_image_url, quantity, unit_price, position)
     SELECT items.order_id, p.id, p.name, p.image_url, 1 + items.line, p.price, items.line
       FROM items JOIN catalogue p ON p.k = items.k`,
    [
      orders,
      orders,
      REPORT_CITIES,
      REPORT_CITIES.length,
      REPORT_COURIERS,
      REPORT_COURIERS.length,
      OUTCOME_REASONS,
      OUTCOME_REASONS.length,
    ],
  );
  // Totals, discounts and verified payments, from the lines and the code each order holds.
  await db.raw(
    `UPDATE orders o
        SET total_price = t.goods - t.discount,
            discount_amount = t.discount,
            payment_verified_amount = CASE WHEN o.payment_status = 'verified' THEN t.goods - t.discount END,
            payment_verified_at = CASE WHEN o.payment_status = 'verified' THEN o.created_at + interval '5 hours' END,
            payment_submitted_at = CASE WHEN o.payment_status IN ('submitted', 'verified', 'rejected')
                                        THEN o.created_at + interval '1 hour' END,
            payment_rejected_reason = CASE WHEN o.payment_status = 'rejected' THEN 'No such transfer' END
       FROM (SELECT i.order_id, sum(i.unit_price * i.quantity) AS goods,
                    CASE WHEN min(ord.discount_code) = 'FIRST10' THEN round(sum(i.unit_price * i.quantity) * 0.10)
                         WHEN min(ord.discount_code) = 'WINTER15' THEN round(sum(i.unit_price * i.quantity) * 0.15)
                         WHEN min(ord.discount_code) = 'EID500' THEN least(500, sum(i.unit_price * i.quantity))
                         ELSE 0 END AS discount
               FROM order_items i JOIN orders ord ON ord.id = i.order_id
              WHERE ord.customer_email LIKE 'report%@bench.waqt.pk'
              GROUP BY i.order_id) t
      WHERE t.order_id = o.id`,
  );
  // Returns of delivered orders: every status, refunds paid on those received.
  await db.raw(
    `INSERT INTO order_returns (order_id, reason, status, rejection_reason, refund_amount, refund_method, created_at, updated_at)
     SELECT o.id, (?::text[])[1 + o.n % ?],
            (ARRAY['Requested','Approved','Rejected','Received','Received'])[1 + (o.n / 5) % 5],
            CASE WHEN (o.n / 5) % 5 = 2 THEN 'Worn' END,
            round(o.total_price / 2),
            CASE WHEN (o.n / 5) % 5 >= 3 THEN (ARRAY['Cash','Bank transfer','JazzCash','Easypaisa'])[1 + o.n % 4] END,
            o.delivered_at + interval '2 days', o.delivered_at + interval '2 days'
       FROM (SELECT id, total_price, delivered_at, abs(hashtext(id::text)) AS n FROM orders
              WHERE status = 'Delivered' AND customer_email LIKE 'report%@bench.waqt.pk') AS o
      WHERE o.n % 12 = 0`,
    [RETURN_REASONS, RETURN_REASONS.length],
  );
  await db.raw("VACUUM ANALYZE");
  return { orders, seconds: (Date.now() - started) / 1000 };
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
