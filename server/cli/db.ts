/**
 * Database tasks: `npm run db:migrate`, `npm run db:rollback`, `npm run db:seed`.
 * They use DATABASE_URL, or the embedded cluster under DATA_DIR like the server does.
 */
import { isEmptyStore, seedDemoData } from "../../seeds/demo";
import { ConfigError, loadConfig } from "../settings/config";
import { migrateToLatest } from "../jobs/migrate";
import { openDatabase } from "../start-up/open-database";

const task = process.argv[2];
if (!["migrate", "rollback", "seed"].includes(task ?? "")) {
  console.error("Usage: db.ts migrate | rollback | seed");
  process.exit(2);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

const database = await openDatabase(config);
try {
  if (task === "migrate") {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length > 0 ? `Applied: ${applied.join(", ")}` : "Already up to date.");
  } else if (task === "rollback") {
    const [, undone] = (await database.db.migrate.rollback()) as [number, string[]];
    console.log(undone.length > 0 ? `Rolled back: ${undone.join(", ")}` : "Nothing to roll back.");
  } else {
    await migrateToLatest(database.db);
    const wasEmpty = await isEmptyStore(database.db);
    const report = await seedDemoData(database.db);
    console.log(
      `Seeded ${report.products} products and ${report.users} accounts${wasEmpty ? "" : " (existing rows left as they were)"}.`,
    );
  }
} finally {
  await database.close();
}
