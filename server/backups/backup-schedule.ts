import pg from "pg";
import type { Logger } from "../logging/logger";
import { backupLayout, readBaseBackups } from "./backup-archive";
import { takeBaseBackup } from "./base-backup";
import { archiveCurrentWal } from "./wal-archive";

/**
 * The running store's part in backups (embedded cluster only). A base backup when the newest one
 * is missing or a day old: the job queue's "base-backup" task (server/jobs/job-tasks.ts), added at
 * start and by the crontab every ten minutes, once per slot across app servers, under one job key;
 * the task takes a backup only when one is due, so a day never gets two. At stop, the WAL so far
 * goes to the archive before PostgreSQL stops: the switch runs on a connection held from the
 * start, since PostgreSQL asked to stop by someone else (SIGTERM, a smart shutdown) refuses new
 * connections but still serves those it has. With several app servers on one DATABASE_URL there
 * is no embedded cluster, and the database's operator owns backups.
 *
 * "Newest" counts only backups on the cluster's current timeline: after a restore the cluster is
 * on a new timeline, and its first start takes a fresh backup of it.
 */
export type BaseBackupOptions = {
  /** The store's database in the embedded cluster, as the store's role. */
  connectionString: string;
  clusterDir: string;
  dataDir: string;
  backupDir: string;
  keepDays: number;
  logger: Logger;
  /** Time source, so tests can say what "a day old" is. */
  now?: () => Date;
};

export const BASE_BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;
/** How often the crontab asks: the newest backup is never much more than a day old (the dashboard warns at 25 h). */
export const BASE_BACKUP_CHECK_SCHEDULE = "*/10 * * * *";
/** How long a stop waits for the archive to receive the last segment. */
const STOP_ARCHIVE_WAIT_MS = 15_000;

/** The "base-backup" task: a base backup if none on this timeline is a day old; `signal` abandons it. */
export async function takeBaseBackupIfDue(options: BaseBackupOptions, signal: AbortSignal): Promise<void> {
  const { logger } = options;
  const now = options.now ?? (() => new Date());
  try {
    if (!(await backupDue(options, now()))) return;
    const started = Date.now();
    const outcome = await takeBaseBackup({
      connectionString: options.connectionString,
      clusterDir: options.clusterDir,
      dataDir: options.dataDir,
      backupDir: options.backupDir,
      keepDays: options.keepDays,
      whenBusy: "skip",
      signal,
    });
    if (outcome.status === "busy") {
      logger.info("base backup skipped: another one (npm run backup) is in progress");
      return;
    }
    logger.info(
      {
        backup: outcome.manifest.name,
        bytes: outcome.manifest.databaseBytes + outcome.manifest.filesBytes,
        seconds: (Date.now() - started) / 1000,
        removedBackups: outcome.retention.deletedBackups.length,
        removedWalFiles: outcome.retention.deletedWal.length,
      },
      "base backup taken",
    );
  } catch (error) {
    // Not thrown to the queue: the next slot (ten minutes) is the retry.
    if (signal.aborted) logger.info("base backup abandoned: the store is stopping");
    else logger.error({ err: error }, "base backup failed");
  }
}

export type WalSwitchAtStop = { stop(): Promise<void> };

/** Holds a connection from the start, and at stop sends the WAL written so far to the archive. */
export function startWalSwitchAtStop(
  options: Omit<BaseBackupOptions, "now" | "keepDays" | "dataDir" | "clusterDir">,
): WalSwitchAtStop {
  const { logger } = options;
  // Held for the switch at stop; if it is lost meanwhile, the stop opens another.
  const held = new pg.Client({ connectionString: options.connectionString });
  let heldUsable = false;
  held.on("error", () => (heldUsable = false));
  held.on("end", () => (heldUsable = false));
  const heldReady = held.connect().then(
    () => (heldUsable = true),
    () => (heldUsable = false),
  );

  return {
    async stop() {
      const { walDir } = backupLayout(options.backupDir);
      await heldReady;
      try {
        const outcome = await archiveCurrentWal(
          heldUsable ? held : options.connectionString,
          walDir,
          STOP_ARCHIVE_WAIT_MS,
        );
        if (outcome.archived && outcome.switched)
          logger.info({ segment: outcome.segment }, "WAL archived before stopping");
        else if (outcome.archived)
          logger.info(
            { segment: outcome.segment },
            "nothing written since the last archived WAL: nothing to switch before stopping",
          );
        else
          logger.warn(
            { segment: outcome.segment, archiver: outcome.archiver },
            "WAL not archived before stopping: it stays in pg_wal and is archived at the next start",
          );
      } catch (error) {
        logger.warn({ err: error }, "WAL could not be switched before stopping");
      } finally {
        await held.end().catch(() => {});
      }
    },
  };
}

async function backupDue(options: BaseBackupOptions, at: Date): Promise<boolean> {
  const client = new pg.Client({ connectionString: options.connectionString });
  client.on("error", () => {});
  await client.connect();
  let timeline: number;
  try {
    const { rows } = await client.query("SELECT timeline_id FROM pg_control_checkpoint()");
    timeline = rows[0].timeline_id;
  } finally {
    await client.end().catch(() => {});
  }
  const backups = await readBaseBackups(backupLayout(options.backupDir));
  const newest = backups.filter((backup) => backup.manifest.timeline === timeline).at(-1);
  return !newest || at.getTime() - new Date(newest.manifest.finishedAt).getTime() >= BASE_BACKUP_EVERY_MS;
}
