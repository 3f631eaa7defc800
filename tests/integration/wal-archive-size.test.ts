import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../seeds/demo";
import { demoAccounts } from "../../seeds/demo-accounts";
import { backupLayout } from "../../server/backups/backup-archive";
import { archiveCurrentWal } from "../../server/backups/wal-archive";
import { loadConfig } from "../../server/settings/config";
import { migrateToLatest } from "../../server/jobs/migrate";
import { openDatabase } from "../../server/start-up/open-database";
import { createLogger } from "../../server/logging/logger";
import { createServices } from "../../server/start-up/services";

/**
 * The WAL archive of a quiet store stays small (docs/decisions/2026-11-25-backups-outlive-the-disk.md):
 * PostgreSQL ends a segment after archive_timeout whenever anything was written, so a store with
 * a little traffic archives one segment a minute. Archived whole, that was 16 MB a minute (14
 * minutes of someone trying the shop left 224 MB). Half an hour of the shop being tried is
 * simulated here with the store's own services, each "minute" ended by a forced WAL switch (what
 * archive_timeout does) and a checkpoint every five (checkpoint_timeout), which makes the next
 * writes log whole pages again.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-archive-size-"));
const backupDir = `${dataDir}-backups`;
afterAll(() => {
  for (const dir of [dataDir, backupDir]) fs.rmSync(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;
const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

describe("the WAL archive", () => {
  it("holds under 64 MB after half an hour of a shop being tried (orders, searches, admin work)", async () => {
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const database = await openDatabase(config);
    const { walDir } = backupLayout(config.backupDir);
    try {
      await migrateToLatest(database.db);
      await seedDemoData(database.db);
      // A new store refuses a first-time phone's or an account's orders past its cash-on-delivery
      // rules (docs/product.md, "Cash-on-delivery rules"); this shop's orders are not about them.
      await database.db("order_rules").update({
        blockAfterReturns: null,
        firstTimeCodLimit: null,
        codLimit: null,
        openCodOrders: null,
      });
      const services = createServices({ db: database.db, config, logger: createLogger("silent") });
      const customer = await database.db("users").where("email", demoAccounts.customer.email).first("id");
      const products = await database.db("products").where("stock", ">", 5).orderBy("name").limit(10);
      const superuser = new pg.Client({ connectionString: database.embedded!.adminUrl });
      await superuser.connect();
      try {
        for (let minute = 0; minute < 30; minute++) {
          const product = products[minute % products.length];
          await services.catalog.listProducts({ search: ["steel", "gold", "diver"][minute % 3] });
          await services.cart.addItem(customer.id, { productId: product.id, quantity: 1 });
          await services.checkout.placeOrder(customer.id, { address });
          await services.catalog.updateProduct(product.id, {
            name: product.name,
            description: product.description,
            price: product.price,
            category: product.category,
            imageUrl: product.imageUrl,
            stock: 50 + minute,
            brand: product.brand,
          });
          if (minute % 5 === 4) await superuser.query("CHECKPOINT");
          const switched = await archiveCurrentWal(database.url, walDir, 15_000);
          expect(switched.archived, `segment ${switched.segment} archived`).toBe(true);
        }
      } finally {
        await superuser.end();
      }
    } finally {
      await database.close();
    }
    // What the archive takes on disk, whatever its files are called.
    const files = fs.readdirSync(walDir);
    const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(walDir, file)).size, 0);
    const segments = files.filter((file) => /^[0-9A-F]{24}(\.gz)?$/.test(file));
    console.log(
      `WAL archive after half an hour of trying the shop: ${segments.length} segments, ${(bytes / MB).toFixed(2)} MB`,
    );
    expect(segments.length).toBeGreaterThanOrEqual(30);
    expect(bytes).toBeLessThan(64 * MB);
  }, 180_000);
});
