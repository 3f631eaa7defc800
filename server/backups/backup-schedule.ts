import pg from "pg";
import type { Logger } from "../logger";
import { backupLayout, readBaseBackups } from "./backup-archive";
import { takeBaseBackup } from "./base-backup";
import { archiveCurrentWal } from "./wal-archive";

/**
 * The running store's part in backups (embedded cluster only): a base backup at start when the
 * newest one is missing or older than a day, and again whenever the newest turns a day old; at
 * stop, the WAL so far goes to the archive before PostgreSQL stops. The switch at stop runs on a
 * connection held from the start: PostgreSQL asked to stop by someone else (SIGTERM, a smart
 * shutdown) refuses new connections but still serves those it has. With several app servers on
 * one DATABASE_URL there is no embedded cluster, and the database's operator owns backups.
 *
 * "Newest" counts only backups on the cluster's current timeline: after a restore the cluster is
 * on a new timeline, and its first start takes a fresh backup of it.
 */
export type BackupScheduleOptions = {
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

export type BackupSchedule = {
  /** Settles when the check at start (and the backup it took, if any) is done. */
  firstCheck: Promise<void>;
  stop(): Promise<void>;
};

export const BASE_BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;
/** Often enough that the newest backup is never much more than a day old (the dashboard warns at 25 h). */
const CHECK_EVERY_MS = 10 * 60 * 1000;
/** How long a stop waits for the archive to receive the last segment. */
const STOP_ARCHIVE_WAIT_MS = 15_000;

export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { logger } = options;
  const now = options.now ?? (() => new Date());
  const aborter = new AbortController();
  let running: Promise<void> = Promise.resolve();

  const check = async () => {
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
        signal: aborter.signal,
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
      if (aborter.signal.aborted) logger.info("base backup abandoned: the store is stopping");
      else logger.error({ err: error }, "base backup failed");
    }
  };
  const runCheck = () => (running = running.then(check));

  // Held for the switch at stop; if it is lost meanwhile, the stop opens another.
  const held = new pg.Client({ connectionString: options.connectionString });
  let heldUsable = false;
  held.on("error", () => (heldUsable = false));
  held.on("end", () => (heldUsable = false));
  const heldReady = held.connect().then(
    () => (heldUsable = true),
    () => (heldUsable = false),
  );

  const firstCheck = runCheck();
  const timer = setInterval(() => void runCheck(), CHECK_EVERY_MS);
  timer.unref();

  return {
    firstCheck,
    async stop() {
      clearInterval(timer);
      aborter.abort();
      await running;
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

async function backupDue(options: BackupScheduleOptions, at: Date): Promise<boolean> {
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
