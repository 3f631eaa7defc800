import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { backupLayout, type BackupLayout, type BaseBackupManifest } from "./backup-archive";
import { copyTree, exists, syncDirectory, type CopyRule } from "./copy-tree";
import { dataDirFileRule } from "./data-dir";
import { applyRetention, type RetentionPlan } from "./retention";
import { isArchived, readArchiverState, walArchiveSettings } from "./wal-archive";

/**
 * A base backup through PostgreSQL's low-level API, as the manual's "Making a Base Backup Using the
 * Low Level API" describes it: pg_backup_start and pg_backup_stop on one connection, the data
 * directory copied in between (a copy that changes while it is read is fine: WAL replay from the
 * start position repairs it), then backup_label and tablespace_map written from pg_backup_stop's
 * answer. The backup is whole when the WAL up to its stop position is archived.
 */
export type BaseBackupOptions = {
  /** A database of the running embedded cluster (its store database: the lock lives there). */
  connectionString: string;
  clusterDir: string;
  dataDir: string;
  backupDir: string;
  keepDays: number;
  /** Another base backup is under way: wait for it to finish (the command) or give up (the schedule). */
  whenBusy: "wait" | "skip";
  onWait?: () => void;
  signal?: AbortSignal;
};

export type BaseBackupOutcome =
  { status: "taken"; manifest: BaseBackupManifest; dir: string; retention: RetentionPlan } | { status: "busy" };

export class BackupError extends Error {
  override name = "BackupError";
}

/** Held for the whole backup, so the server's schedule and `npm run backup` never run two at once. */
export const BASE_BACKUP_LOCK = 2_026_112_301;
/** How long the archive may take to receive the backup's last segment before the backup fails. */
const ARCHIVE_WAIT_MS = 60_000;

export async function takeBaseBackup(options: BaseBackupOptions): Promise<BaseBackupOutcome> {
  const layout = backupLayout(options.backupDir);
  const client = new pg.Client({ connectionString: options.connectionString });
  client.on("error", () => {});
  await client.connect();
  let temporary: string | null = null;
  try {
    const { rows: locked } = await client.query("SELECT pg_try_advisory_lock($1) AS locked", [BASE_BACKUP_LOCK]);
    if (!locked[0].locked) {
      if (options.whenBusy === "skip") return { status: "busy" };
      options.onWait?.();
      await client.query("SELECT pg_advisory_lock($1)", [BASE_BACKUP_LOCK]);
    }
    await checkArchiving(client, layout);
    await fs.mkdir(layout.baseDir, { recursive: true });
    await removeLeftovers(layout);

    const startedAt = new Date();
    const name = await freeName(layout, startedAt);
    temporary = path.join(layout.baseDir, `.tmp-${name}`);
    const { rows: facts } = await client.query(
      `SELECT system_identifier::text AS system_identifier,
              (SELECT setting::int FROM pg_settings WHERE name = 'wal_segment_size') AS segment_bytes,
              current_setting('server_version') AS version
         FROM pg_control_system()`,
    );

    const { rows: started } = await client.query("SELECT pg_backup_start($1, true)::text AS lsn", [name]);
    const { bytes: databaseBytes } = await copyTree(options.clusterDir, path.join(temporary, "data"), {
      rule: clusterCopyRule,
      signal: options.signal,
    });
    const { rows: stopped } = await client.query(
      "SELECT lsn::text AS lsn, labelfile, spcmapfile, pg_walfile_name(lsn) AS segment FROM pg_backup_stop(false)",
    );
    const finishedAt = new Date();
    const stop = stopped[0] as { lsn: string; labelfile: string; spcmapfile: string; segment: string };
    // Written byte for byte as PostgreSQL answered them; recovery reads where to begin from backup_label.
    await writeDurably(path.join(temporary, "data", "backup_label"), stop.labelfile);
    if (stop.spcmapfile) await writeDurably(path.join(temporary, "data", "tablespace_map"), stop.spcmapfile);
    const label = parseBackupLabel(stop.labelfile);

    await waitForArchive(client, layout, stop.segment, options.signal);
    // Copied after the stop: a photo is written before the row naming it commits, so every file
    // the database refers to at the backup's consistent point is in it.
    const { bytes: filesBytes } = await copyTree(options.dataDir, path.join(temporary, "files"), {
      rule: dataDirFileRule(options.dataDir, options.clusterDir, options.backupDir),
      signal: options.signal,
    });

    const manifest: BaseBackupManifest = {
      name,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      timeline: label.timeline,
      startLsn: started[0].lsn,
      stopLsn: stop.lsn,
      startWalFile: label.startWalFile,
      stopWalFile: stop.segment,
      walSegmentBytes: facts[0].segment_bytes,
      systemIdentifier: facts[0].system_identifier,
      postgresVersion: facts[0].version,
      databaseBytes,
      filesBytes,
    };
    await writeDurably(path.join(temporary, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    await syncDirectory(temporary);
    const dir = path.join(layout.baseDir, name);
    await fs.rename(temporary, dir);
    temporary = null;
    await syncDirectory(layout.baseDir);

    const retention = await applyRetention(layout, options.keepDays, new Date());
    return { status: "taken", manifest, dir, retention };
  } finally {
    // Closing the session ends a backup still in progress (pg_backup_start is per session).
    await client.end().catch(() => {});
    if (temporary) await fs.rm(temporary, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * What the manual says to leave out of the copy (and pg_basebackup leaves out): the WAL itself
 * (recovery takes it from the archive; PostgreSQL makes pg_wal's own subfolders again at start),
 * the lock and options files of the running server, and folders whose content is rebuilt at start.
 * Their folders stay, empty.
 */
export function clusterCopyRule(relativePath: string, isDirectory: boolean): CopyRule {
  const parts = relativePath.split(path.sep);
  const name = parts.at(-1)!;
  if (parts.length === 1) {
    if (isDirectory && EMPTIED_FOLDERS.has(name)) return "empty";
    if (!isDirectory && LEFT_OUT_FILES.has(name)) return "skip";
  }
  if (name.startsWith("pgsql_tmp") || name === "pg_internal.init") return "skip";
  // The Unix socket's lock file (the socket itself is no file and is never copied).
  if (name.startsWith(".s.PGSQL.")) return "skip";
  return "copy";
}

const EMPTIED_FOLDERS = new Set([
  "pg_wal",
  "pg_dynshmem",
  "pg_notify",
  "pg_replslot",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
const LEFT_OUT_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "postgresql.auto.conf.tmp",
  "current_logfiles.tmp",
  "backup_label",
  "backup_label.old",
  "tablespace_map",
  "tablespace_map.old",
  "recovery.signal",
  "standby.signal",
]);

/** backup_label's "START WAL LOCATION: 0/2000028 (file 000000010000000000000002)" and "START TIMELINE: 1". */
export function parseBackupLabel(label: string): { startWalFile: string; timeline: number } {
  const file = /^START WAL LOCATION: \S+ \(file ([0-9A-F]{24})\)$/m.exec(label)?.[1];
  const timeline = /^START TIMELINE: (\d+)$/m.exec(label)?.[1];
  if (!file || !timeline) throw new BackupError("pg_backup_stop answered a backup label this code cannot read");
  return { startWalFile: file, timeline: Number(timeline) };
}

/** The running cluster must archive into this BACKUP_DIR, or its backups could never be restored. */
async function checkArchiving(client: pg.Client, layout: BackupLayout) {
  const { rows } = await client.query(
    `SELECT current_setting('archive_mode') AS mode, current_setting('archive_command') AS command,
            current_setting('waqt.archive_directory', true) AS directory`,
  );
  const { mode, command, directory } = rows[0] as { mode: string; command: string; directory: string | null };
  if (mode !== "on" || !directory || command !== walArchiveSettings(directory).archive_command) {
    throw new BackupError("The running database does not archive its WAL; restart the store so that it does");
  }
  const [archiving, configured] = await Promise.all([realPath(directory), realPath(layout.walDir)]);
  if (archiving !== configured) {
    throw new BackupError(`The running store archives WAL into ${directory}, not into BACKUP_DIR (${layout.walDir})`);
  }
}

async function waitForArchive(client: pg.Client, layout: BackupLayout, segment: string, signal?: AbortSignal) {
  const deadline = Date.now() + ARCHIVE_WAIT_MS;
  while (!(await isArchived(layout.walDir, segment))) {
    signal?.throwIfAborted();
    if (Date.now() > deadline) {
      const archiver = await readArchiverState(client);
      const failure = archiver.lastFailedWal
        ? ` (last failure: ${archiver.lastFailedWal} at ${archiver.lastFailedAt?.toISOString()})`
        : "";
      throw new BackupError(`WAL segment ${segment} was not archived within ${ARCHIVE_WAIT_MS / 1000} s${failure}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Folders of unfinished backups and deletions: only ever left by a process that stopped midway. */
async function removeLeftovers(layout: BackupLayout) {
  for (const entry of await fs.readdir(layout.baseDir)) {
    if (entry.startsWith(".tmp-") || entry.startsWith(".deleting-")) {
      await fs.rm(path.join(layout.baseDir, entry), { recursive: true, force: true });
    }
  }
}

/** "base-20261123T101500Z", with "-2", "-3" … when a backup of the same second exists. */
async function freeName(layout: BackupLayout, at: Date): Promise<string> {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  for (let attempt = 1; ; attempt++) {
    const name = attempt === 1 ? `base-${stamp}` : `base-${stamp}-${attempt}`;
    if (!(await exists(path.join(layout.baseDir, name)))) return name;
  }
}

async function writeDurably(file: string, content: string) {
  const handle = await fs.open(file, "w", 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function realPath(dir: string): Promise<string> {
  return fs.realpath(dir).catch(() => path.resolve(dir));
}
