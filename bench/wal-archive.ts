/**
 * `npm run bench:archive` (and a step of `npm run bench`): how fast the embedded database's WAL
 * archive grows on a quiet store. A steady trickle, an order a minute for an hour, is simulated
 * with the store's own settings (server/backups/wal-archive.ts) but a short archive_timeout, so
 * that a "minute" takes a couple of seconds: each order's segment is ended by archive_timeout as
 * it would be after 60 s, and a checkpoint every five orders stands in for checkpoint_timeout
 * (after each, the next writes log whole pages again). Writes bench/results/wal-archive.{json,md}.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { seedDemoData } from "../seeds/demo";
import { demoAccounts } from "../seeds/demo-accounts";
import { backupLayout, readWalArchive } from "../server/backups/backup-archive";
import { archiveCurrentWal, walArchiveSettings } from "../server/backups/wal-archive";
import { loadConfig } from "../server/settings/config";
import { connectDatabase } from "../server/db/database";
import { migrateToLatest } from "../server/jobs/migrate";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres";
import { EMBEDDED_DATABASE_NAME } from "../server/start-up/open-database";
import { createLogger } from "../server/logging/logger";
import { createServices } from "../server/start-up/services";
import { setCodRules } from "./checkout";
import { ROOT } from "./processes";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "60" },
    "minute-ms": { type: "string", default: "2500" },
    out: { type: "string", default: "bench/results" },
  },
});

export type ArchiveGrowth = {
  orders: number;
  /** How long one simulated minute took here. */
  minuteMs: number;
  segments: number;
  segmentBytes: number;
  /** Bytes the archive grew by during the trickle, as stored (compressed). */
  storedBytes: number;
  /** What the same segments would take stored whole, as basic_archive stored them. */
  wholeBytes: number;
  /** And as 16 MB segments stored whole: the archive before 2026-11-25. */
  wholeBytesAt16Mb: number;
  /** The trickle's growth for a day of it (an order a minute for 24 hours). */
  perDayBytes: number;
  /** What the store archived while it was made and seeded (before the trickle). */
  setupBytes: number;
};

const ADDRESS = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

async function main() {
  const orders = Number(args.orders);
  const minuteMs = Number(args["minute-ms"]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-bench-archive-"));
  const layout = backupLayout(path.join(dir, "backups"));
  const cluster = await startEmbeddedPostgres(path.join(dir, "data", "postgres"), () => {}, {
    // The store's archiving, with archive_timeout shortened so that a "minute" is quick.
    settings: { ...walArchiveSettings(layout.walDir), archive_timeout: "1s" },
    writableDirs: [layout.walDir],
  });
  const superuser = new pg.Client({ connectionString: cluster.adminUrl });
  try {
    await cluster.prepareStoreDatabase(EMBEDDED_DATABASE_NAME, { create: true });
    const url = cluster.storeUrlFor(EMBEDDED_DATABASE_NAME);
    const db = connectDatabase(url);
    try {
      await migrateToLatest(db);
      await seedDemoData(db);
      const config = loadConfig({
        NODE_ENV: "production",
        DATABASE_URL: url,
        SESSION_SECRET: "bench-session-secret-0123456789-0123456789",
        DATA_DIR: path.join(dir, "data"),
      });
      const services = createServices({ db, config, logger: createLogger("silent") });
      const customer = await db("users").where("email", demoAccounts.customer.email).first("id");
      const products = await db("products").orderBy("name").limit(10);
      await db("products")
        .whereIn(
          "id",
          products.map((product) => product.id),
        )
        .update({ stock: 1000 });
      // Sixty orders of one customer on the way at once: the cash-on-delivery rules the store
      // starts with take two. Off here, as for checkout's default run (bench/checkout.ts): this
      // bench weighs the archive, not the rules.
      await setCodRules(db, false);
      await superuser.connect();
      await superuser.query("CHECKPOINT");
      await archiveCurrentWal(url, layout.walDir, 30_000);
      const before = await readWalArchive(layout);

      console.log(`An order a simulated minute (${minuteMs} ms), ${orders} orders…`);
      for (let minute = 0; minute < orders; minute++) {
        const started = Date.now();
        await services.cart.addItem(customer.id, { productId: products[minute % products.length].id, quantity: 1 });
        await services.checkout.placeOrder(customer.id, { address: ADDRESS });
        if (minute % 5 === 4) await superuser.query("CHECKPOINT");
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, minuteMs - (Date.now() - started))));
      }
      await archiveCurrentWal(url, layout.walDir, 30_000);
      const after = await readWalArchive(layout);
      const segmentBytes = Number(
        (await superuser.query("SELECT setting FROM pg_settings WHERE name = 'wal_segment_size'")).rows[0].setting,
      );
      const segments = after.segments.length - before.segments.length;
      const storedBytes = after.storedBytes - before.storedBytes;
      const growth: ArchiveGrowth = {
        orders,
        minuteMs,
        segments,
        segmentBytes,
        storedBytes,
        wholeBytes: segments * segmentBytes,
        wholeBytesAt16Mb: segments * 16 * 1024 * 1024,
        perDayBytes: Math.round((storedBytes / orders) * 24 * 60),
        setupBytes: before.storedBytes,
      };
      const outDir = path.resolve(ROOT, args.out!);
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, "wal-archive.json"), JSON.stringify(growth, null, 2) + "\n");
      const markdown = archiveMarkdown(growth);
      fs.writeFileSync(path.join(outDir, "wal-archive.md"), markdown);
      console.log(markdown);
    } finally {
      await db.destroy();
    }
  } finally {
    await superuser.end().catch(() => {});
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

export function archiveMarkdown(growth: ArchiveGrowth): string {
  return [
    "# WAL archive growth of a quiet store",
    "",
    `An order a minute, ${growth.orders} of them (an hour), each minute's segment ended by archive_timeout,`,
    "a checkpoint every five minutes (bench/wal-archive.ts).",
    "",
    "| | |",
    "|---|---|",
    `| segments archived | ${growth.segments} of ${mb(growth.segmentBytes)} |`,
    `| archive growth, stored (gzip) | ${mb(growth.storedBytes)} an hour |`,
    `| the same segments stored whole | ${mb(growth.wholeBytes)} an hour |`,
    `| as 16 MB segments stored whole (the archive before 2026-11-25) | ${mb(growth.wholeBytesAt16Mb)} an hour |`,
    `| **archive growth per day** | **${mb(growth.perDayBytes)}** |`,
    `| archived while the store was made and seeded | ${mb(growth.setupBytes)} |`,
    "",
  ].join("\n");
}

await main();
