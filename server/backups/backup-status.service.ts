import type { Config } from "../settings/config";
import type { Database } from "../db/database";
import { backupLayout, readBaseBackups } from "./backup-archive";
import { archivingFails, readArchiverState } from "./wal-archive";

/** What the admin dashboard shows about backups. Times are ISO 8601 strings. */
export type BackupStatus =
  /** DATABASE_URL: the database's operator owns backups (docs/operations.md, "Backups"). */
  | { kind: "operator" }
  | {
      kind: "embedded";
      lastBaseBackup: { name: string; finishedAt: string; bytes: number } | null;
      lastArchivedWal: { name: string; archivedAt: string } | null;
      /** Set while archiving fails: its latest attempt failed (pg_stat_archiver). */
      archivingFailure: { wal: string | null; failedAt: string } | null;
      /** No base backup younger than BASE_BACKUP_WARNING_HOURS. */
      baseBackupOverdue: boolean;
    };

/** A base backup is due every 24 h (server/backups/backup-schedule.ts); an hour later it is late. */
export const BASE_BACKUP_WARNING_HOURS = 25;

export class BackupStatusService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, "databaseUrl" | "backupDir">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async status(): Promise<BackupStatus> {
    if (this.config.databaseUrl) return { kind: "operator" };
    const [backups, archiver] = await Promise.all([
      readBaseBackups(backupLayout(this.config.backupDir)),
      readArchiverState({ query: (sql) => this.db.raw(sql) }),
    ]);
    const newest = backups.at(-1)?.manifest ?? null;
    const age = newest ? this.now().getTime() - new Date(newest.finishedAt).getTime() : Number.POSITIVE_INFINITY;
    return {
      kind: "embedded",
      lastBaseBackup: newest
        ? { name: newest.name, finishedAt: newest.finishedAt, bytes: newest.databaseBytes + newest.filesBytes }
        : null,
      lastArchivedWal:
        archiver.lastArchivedWal && archiver.lastArchivedAt
          ? { name: archiver.lastArchivedWal, archivedAt: archiver.lastArchivedAt.toISOString() }
          : null,
      archivingFailure: archivingFails(archiver)
        ? { wal: archiver.lastFailedWal, failedAt: archiver.lastFailedAt!.toISOString() }
        : null,
      baseBackupOverdue: age >= BASE_BACKUP_WARNING_HOURS * 60 * 60 * 1000,
    };
  }
}
