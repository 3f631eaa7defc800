import crypto from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { connectDatabase, type Database } from "../../server/db/database";

export type TestDatabase = { db: Database; url: string; name: string; drop(): Promise<void> };

/**
 * A database of its own for one test file, cloned from the migrated template (real PostgreSQL),
 * owned by and reached as the store's role, as the store reaches its own.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("testDatabaseAdminUrl");
  const storeUrl = new URL(inject("testDatabaseStoreUrl"));
  const template = inject("testTemplateDatabase");
  const name = `waqt_test_${crypto.randomBytes(6).toString("hex")}`;
  const owner = decodeURIComponent(storeUrl.username);
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template} OWNER "${owner.replace(/"/g, '""')}"`);
  const url = storeUrl;
  url.pathname = `/${name}`;
  const db = connectDatabase(url.href);
  return {
    db,
    url: url.href,
    name,
    async drop() {
      await db.destroy();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function adminQuery(adminUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
