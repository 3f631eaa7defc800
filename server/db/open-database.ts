import path from "node:path";
import pg from "pg";
import type { Config } from "../config";
import { connectDatabase, type Database } from "./database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres";

export const EMBEDDED_DATABASE_NAME = "waqt";

export type OpenDatabase = {
  db: Database;
  url: string;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
};

/**
 * Connects to DATABASE_URL, or, without it, starts the embedded cluster under DATA_DIR and
 * creates the store's database in it on first use.
 */
export async function openDatabase(config: Config, log: (line: string) => void = () => {}): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, "postgres"), log);
    await createDatabaseIfMissing(embedded.adminUrl, EMBEDDED_DATABASE_NAME);
    url = embedded.urlFor(EMBEDDED_DATABASE_NAME);
  }
  const db = connectDatabase(url, { log: (_level, message) => log(String(message)) });
  return {
    db,
    url,
    embedded,
    async close() {
      await db.destroy().catch(() => {});
      await embedded?.stop();
    },
  };
}

export async function createDatabaseIfMissing(adminUrl: string, name: string, template?: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) {
      const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : "";
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await client.end();
  }
}
