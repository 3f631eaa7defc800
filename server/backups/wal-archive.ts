import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/**
 * Continuous archiving for the embedded cluster. PostgreSQL's own basic_archive module (shipped
 * with the embedded binaries) copies each finished WAL segment to a temporary name, fsyncs it and
 * renames it, and refuses to overwrite an archived segment with different content. A segment is
 * finished when it is full or, at the latest, after archive_timeout: so a crash loses at most a
 * minute of commits, and a clean stop, which switches segments and waits (archiveCurrentWal),
 * loses none.
 */
export const ARCHIVE_TIMEOUT_SECONDS = 60;

export function walArchiveSettings(walDir: string): Record<string, string> {
  return {
    archive_mode: "on",
    archive_library: "basic_archive",
    "basic_archive.archive_directory": walDir,
    archive_timeout: `${ARCHIVE_TIMEOUT_SECONDS}s`,
  };
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
 * stays in pg_wal, marked ready, and PostgreSQL archives it after its next start.
 */
export async function archiveCurrentWal(
  connectionString: string,
  walDir: string,
  timeoutMs: number,
): Promise<{ segment: string; archived: boolean; archiver: ArchiverState }> {
  const client = new pg.Client({ connectionString });
  client.on("error", () => {});
  await client.connect();
  try {
    // pg_switch_wal answers the end of its switch record, inside the segment it finished. With no
    // WAL since the last switch it does nothing and answers the current segment's first byte,
    // which pg_walfile_name names as the current (empty) segment: the last finished is the one before.
    const { rows } = await client.query(
      `WITH switched AS (
         SELECT pg_switch_wal() AS lsn, (SELECT setting::numeric FROM pg_settings WHERE name = 'wal_segment_size') AS bytes)
       SELECT pg_walfile_name(CASE WHEN (lsn - '0/0'::pg_lsn) % bytes = 0 THEN lsn - 1 ELSE lsn END) AS segment
         FROM switched`,
    );
    const segment = rows[0].segment as string;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await fileExists(path.join(walDir, segment)))
        return { segment, archived: true, archiver: await readArchiverState(client) };
      if (Date.now() >= deadline) return { segment, archived: false, archiver: await readArchiverState(client) };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function fileExists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
