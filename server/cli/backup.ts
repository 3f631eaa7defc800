/**
 * Backups of the embedded cluster (docs/operations.md, "Backups"):
 *   npm run backup                                     take a base backup now
 *   npm run backup:list                                the base backups and the span a restore can reach
 *   npm run restore [-- --to <ISO 8601>] [--replace]   restore the latest point, or a moment
 *   npm run backup:verify                              restore the newest backup in a temporary folder and count what it holds
 * With DATABASE_URL the database's operator owns backups, and every command says so.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { assessArchive, backupLayout } from "../backups/backup-archive";
import { adoptBackupsFromOldDefault } from "../backups/backup-dir";
import { BackupError, takeBaseBackup } from "../backups/base-backup";
import { RecoveryError } from "../backups/recovery";
import { restore, RestoreRefused, verifyNewestBackup } from "../backups/restore";
import { parseRestoreTime, RESTORE_TIME_FORM, type RestoreTime } from "../backups/restore-time";
import { ConfigError, loadConfig, type Config } from "../settings/config";
import { runningClusterUrls, runningPostmaster } from "../db/embedded-postgres";
import { EMBEDDED_DATABASE_NAME, embeddedClusterDir, openDatabase } from "../start-up/open-database";

const USAGE = "Usage: backup.ts take | list | verify | restore [--to <ISO 8601 time>] [--replace]";

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "take") await take(loadSettings());
  else if (command === "list") await list(loadSettings());
  else if (command === "verify") await verify(loadSettings());
  else if (command === "restore") await restoreCommand(rest);
  else fail(USAGE, 2);
  process.exit(0);
} catch (error) {
  const known = error instanceof RestoreRefused || error instanceof RecoveryError || error instanceof BackupError;
  fail(known ? error.message : `${command} failed: ${error instanceof Error ? error.message : String(error)}`);
}

function loadSettings(): Config {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  if (config.databaseUrl) {
    fail(
      'DATABASE_URL is set: that database\'s operator owns its backups (managed snapshots, pg_dump or pg_basebackup; see docs/operations.md, "Backups")',
    );
  }
  // Not while a store runs on this DATA_DIR: its PostgreSQL archives into BACKUP_DIR.
  if (!runningPostmaster(embeddedClusterDir(config.dataDir))) {
    const moved = adoptBackupsFromOldDefault(config);
    if (moved) console.log(moved);
  }
  return config;
}

async function take(config: Config) {
  const clusterDir = embeddedClusterDir(config.dataDir);
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    fail(`No database in ${clusterDir}: start the store once (npm start), or restore one (npm run restore)`);
  }
  const started = Date.now();
  const running = runningPostmaster(clusterDir);
  const runningUrls = runningClusterUrls(clusterDir);
  if (running && !runningUrls) {
    fail(
      `The PostgreSQL running on ${clusterDir} (process ${running.pid}) was started by an older version: restart the store first`,
    );
  }
  // A running store's cluster is backed up where it runs (as the store's role, through its
  // socket); otherwise it is started for the backup.
  const database = runningUrls ? null : await openDatabase(config);
  try {
    const outcome = await takeBaseBackup({
      connectionString: database?.url ?? runningUrls!.storeUrlFor(EMBEDDED_DATABASE_NAME),
      clusterDir,
      dataDir: config.dataDir,
      backupDir: config.backupDir,
      keepDays: config.backupKeepDays,
      whenBusy: "wait",
      onWait: () => console.log("Another base backup is in progress; waiting for it to finish…"),
    });
    if (outcome.status !== "taken") return;
    const { manifest, retention } = outcome;
    console.log(
      `Base backup ${manifest.name}: ${formatBytes(manifest.databaseBytes + manifest.filesBytes)}, ` +
        `taken at ${manifest.finishedAt} in ${((Date.now() - started) / 1000).toFixed(1)} s (${outcome.dir})`,
    );
    if (retention.deletedBackups.length > 0 || retention.deletedWal.length > 0) {
      console.log(
        `Removed ${retention.deletedBackups.length} backup(s) older than ${config.backupKeepDays} days and ` +
          `${retention.deletedWal.length} archived WAL file(s) no kept backup needs`,
      );
    }
  } finally {
    await database?.close();
  }
}

async function list(config: Config) {
  const layout = backupLayout(config.backupDir);
  const assessment = await assessArchive(layout);
  if (assessment.backups.length === 0) {
    console.log(`No base backups in ${layout.baseDir}.`);
    return;
  }
  const onHistory = new Set(assessment.onHistory);
  console.log(`Base backups in ${layout.baseDir}:`);
  for (const backup of assessment.backups) {
    const { manifest } = backup;
    const note = onHistory.has(backup) ? "" : "  (not on the newest timeline: a restore went back before it)";
    const size = formatBytes(manifest.databaseBytes + manifest.filesBytes).padStart(9);
    console.log(`  ${manifest.name}  ${manifest.finishedAt}  ${size}  timeline ${manifest.timeline}${note}`);
  }
  const { chain, span, chainBreaks, listing } = assessment;
  if (chain.last) console.log(`Last archived WAL: ${chain.last.name} at ${chain.last.archivedAt.toISOString()}`);
  console.log(
    `WAL archive: ${listing.segments.length} segment(s), ${formatBytes(listing.storedBytes)} on disk (${layout.walDir})`,
  );
  console.log(
    span
      ? `Restorable span: ${span.from.toISOString()} to ${span.to.toISOString()}`
      : "Nothing can be restored yet: the archive lacks the backups' WAL.",
  );
  for (const chainBreak of chainBreaks.slice(0, 5)) {
    console.log(`Warning: WAL segment ${chainBreak.segment} ${chainBreak.detail}; restores past it fail`);
  }
  if (chainBreaks.length > 5) console.log(`…and ${chainBreaks.length - 5} more missing or damaged segments`);
}

async function verify(config: Config) {
  const started = Date.now();
  const outcome = await verifyNewestBackup(config.backupDir, (line) => console.log(line)).catch((error) => {
    fail(`Verification failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  const { users, products, orders } = outcome.counts;
  console.log(
    `Backup ${outcome.backup.manifest.name} restores: ${users} users, ${products} products, ${orders} orders; ` +
      `last transaction ${outcome.lastTransactionAt?.toISOString() ?? "before the backup"} ` +
      `(checked in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

async function restoreCommand(args: string[]) {
  let options: { to?: string; replace?: boolean };
  try {
    ({ values: options } = parseArgs({
      args,
      options: { to: { type: "string" }, replace: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}. ${USAGE}`, 2);
  }
  let target: RestoreTime | null = null;
  if (options.to !== undefined) {
    target = parseRestoreTime(options.to);
    if (!target) fail(`--to "${options.to}" is not a time: expected ${RESTORE_TIME_FORM}`);
  }
  const config = loadSettings();
  const outcome = await restore({
    dataDir: config.dataDir,
    backupDir: config.backupDir,
    target,
    replace: options.replace ?? false,
    progress: (line) => console.log(line),
  });
  const reached = outcome.lastTransactionAt ? `, last transaction ${outcome.lastTransactionAt.toISOString()}` : "";
  console.log(
    `Restored base backup ${outcome.backup.manifest.name} and the archived WAL${reached} into ${embeddedClusterDir(config.dataDir)}`,
  );
  if (outcome.movedAsideTo) console.log(`The database that was there is kept in ${outcome.movedAsideTo}`);
  if (outcome.filesRestored > 0) console.log(`${outcome.filesRestored} file(s) of DATA_DIR put back from the backup`);
  console.log("Start the store with npm start.");
}

function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}
