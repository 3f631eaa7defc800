import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { projectFile } from "../settings/project-root";

/**
 * Continuous archiving for the embedded cluster. PostgreSQL runs server/backups/wal-command.mjs
 * for each finished WAL segment: it stores it gzip-compressed (`<segment>.gz`) under a temporary
 * name, fsyncs and renames it, and refuses to overwrite an archived file with different content.
 * A segment is finished when it is full or, at the latest, after archive_timeout: so a crash loses
 * at most a minute of commits, and a clean stop, which switches segments and waits
 * (archiveCurrentWal), loses none.
 *
 * The archive stays small on a quiet store (docs/decisions/2026-11-25-backups-outlive-the-disk.md):
 * a segment ended by archive_timeout is mostly unused, and with wal_recycle off that unused tail is
 * zeros (a recycled segment would hold old WAL there), which compress to nearly nothing; new
 * clusters also have 1 MB segments (server/db/embedded-postgres.ts) instead of 16 MB.
 */
export const ARCHIVE_TIMEOUT_SECONDS = 60;

/** The script PostgreSQL runs to archive and restore WAL (plain JavaScript: node runs it as it is). */
export const WAL_COMMAND_SCRIPT = projectFile("server/backups/wal-command.mjs");

export function walArchiveSettings(walDir: string): Record<string, string> {
  return {
    archive_mode: "on",
    archive_library: "",
    archive_command: walCommand("archive", walDir, '"%p" "%f"'),
    // Read back by the base backup's check (server/backups/base-backup.ts); archive_command holds it too.
    "waqt.archive_directory": walDir,
    archive_timeout: `${ARCHIVE_TIMEOUT_SECONDS}s`,
    wal_recycle: "off",
    wal_compression: "on",
  };
}

/**
 * Copies a file from the archive for recovery: PostgreSQL replaces %f (its name) and %p (where it
 * goes); a plain file or a compressed one, whichever the archive holds.
 */
export function restoreCommand(walDir: string): string {
  return walCommand("restore", walDir, '"%f" "%p"');
}

/**
 * The shell gets each path in single quotes; PostgreSQL reads %% as % in the whole command, so a
 * % of a path is doubled.
 */
function walCommand(action: "archive" | "restore", walDir: string, placeholders: string): string {
  const quoted = (text: string) => `'${text.replace(/%/g, "%%").replace(/'/g, `'\\''`)}'`;
  return `${quoted(process.execPath)} ${quoted(WAL_COMMAND_SCRIPT)} ${action} ${quoted(walDir)} ${placeholders}`;
}

/** Whether the archive holds this segment (compressed, or plain from before compression). */
export async function isArchived(walDir: string, segment: string): Promise<boolean> {
  for (const name of [segment, `${segment}.gz`]) {
    const found = await fs.access(path.join(walDir, name)).then(
      () => true,
      () => false,
    );
    if (found) return true;
  }
  return false;
}

/** What pg_stat_archiver says about the cluster's archiving. */
export type ArchiverState = {
  archivedCount: number;
  lastArchivedWal: string | null;
  lastArchivedAt: Date | null;
  failedCount: number;
  lastFailedWal: string | null;
  lastFailedAt: Date | null;
};

type Queryable = { query(sql: string): Promise<{ rows: Record<string, unknown>[] }> };

export async function readArchiverState(client: Queryable): Promise<ArchiverState> {
  const { rows } = await client.query(
    `SELECT archived_count, last_archived_wal, last_archived_time, failed_count, last_failed_wal, last_failed_time
       FROM pg_stat_archiver`,
  );
  const row = rows[0]!;
  return {
    archivedCount: Number(row.archived_count),
    lastArchivedWal: (row.last_archived_wal as string | null) ?? null,
    lastArchivedAt: (row.last_archived_time as Date | null) ?? null,
    failedCount: Number(row.failed_count),
    lastFailedWal: (row.last_failed_wal as string | null) ?? null,
    lastFailedAt: (row.last_failed_time as Date | null) ?? null,
  };
}

/** Archiving is failing when its latest attempt failed: a failure newer than the last success. */
export function archivingFails(state: ArchiverState): boolean {
  if (state.failedCount === 0 || !state.lastFailedAt) return false;
  return !state.lastArchivedAt || state.lastFailedAt > state.lastArchivedAt;
}

/**
 * Ends the current WAL segment (pg_switch_wal) and waits until the archive holds it, so that
 * every transaction committed so far is archived. Bounded: when archiving is failing the segment
 * stays in pg_wal, marked ready, and PostgreSQL archives it after its next start. `switched` is
 * false when nothing was written since the last switch (the segment before is then the last).
 * Runs on the given client (the store's connection, held from start) or on a new connection.
 */
export async function archiveCurrentWal(
  connection: string | pg.Client,
  walDir: string,
  timeoutMs: number,
): Promise<{ segment: string; switched: boolean; archived: boolean; archiver: ArchiverState }> {
  const client = typeof connection === "string" ? new pg.Client({ connectionString: connection }) : connection;
  if (typeof connection === "string") {
    client.on("error", () => {});
    await client.connect();
  }
  try {
    // pg_switch_wal answers the end of its switch record, inside the segment it finished. With no
    // WAL since the last switch it does nothing and answers the current segment's first byte,
    // which pg_walfile_name names as the current (empty) segment: the last finished is the one before.
    const { rows } = await client.query(
      `WITH switched AS (
         SELECT pg_switch_wal() AS lsn, (SELECT setting::numeric FROM pg_settings WHERE name = 'wal_segment_size') AS bytes)
       SELECT pg_walfile_name(CASE WHEN (lsn - '0/0'::pg_lsn) % bytes = 0 THEN lsn - 1 ELSE lsn END) AS segment,
              (lsn - '0/0'::pg_lsn) % bytes <> 0 AS switched
         FROM switched`,
    );
    const segment = rows[0].segment as string;
    const switched = rows[0].switched as boolean;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await isArchived(walDir, segment))
        return { segment, switched, archived: true, archiver: await readArchiverState(client) };
      if (Date.now() >= deadline)
        return { segment, switched, archived: false, archiver: await readArchiverState(client) };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    if (typeof connection === "string") await client.end().catch(() => {});
  }
}
