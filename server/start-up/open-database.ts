import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { backupLayout } from "../backups/backup-archive";
import { adoptBackupsFromOldDefault, BackupsOfAnEarlierDatabase, holdsBackups } from "../backups/backup-dir";
import { walArchiveSettings } from "../backups/wal-archive";
import type { Config } from "../settings/config";
import { connectDatabase, type Database } from "../db/database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../db/embedded-postgres";

export const EMBEDDED_DATABASE_NAME = "waqt";

/** The embedded cluster's folder under DATA_DIR. */
export function embeddedClusterDir(dataDir: string): string {
  return path.join(dataDir, "postgres");
}

export type OpenDatabase = {
  db: Database;
  url: string;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
};

/**
 * Connects to DATABASE_URL, or, without it, starts the embedded cluster under DATA_DIR and
 * creates the store's database in it on first use. The embedded cluster always archives its WAL
 * into BACKUP_DIR (server/backups/wal-archive.ts), whatever runs it: a run without archiving
 * would break the chain that restores replay.
 */
export async function openDatabase(
  config: Config,
  log: (line: string) => void = () => {},
  notice: (message: string) => void = () => {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    // Before PostgreSQL archives anything into BACKUP_DIR.
    const moved = adoptBackupsFromOldDefault(config);
    if (moved) notice(moved);
    const clusterDir = embeddedClusterDir(config.dataDir);
    if (!fs.existsSync(path.join(clusterDir, "PG_VERSION")) && holdsBackups(config.backupDir)) {
      throw new BackupsOfAnEarlierDatabase(config.backupDir);
    }
    const { walDir } = backupLayout(config.backupDir);
    embedded = await startEmbeddedPostgres(clusterDir, log, {
      settings: walArchiveSettings(walDir),
      writableDirs: [walDir],
    });
    try {
      await embedded.prepareStoreDatabase(EMBEDDED_DATABASE_NAME, { create: true });
    } catch (error) {
      await embedded.stop();
      throw error;
    }
    // The store's own role, never the superuser (server/db/store-role.ts).
    url = embedded.storeUrlFor(EMBEDDED_DATABASE_NAME);
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
