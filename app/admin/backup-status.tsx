import type { BackupStatus } from "../../server/backups/backup-status.service";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * The dashboard's backup panel: the last base backup and the last archived WAL segment, and a
 * warning when archiving fails or the newest base backup is more than 25 hours old
 * (server/backups/backup-status.service.ts). docs/operations.md ("Backups") says what to do about either.
 */
export function BackupStatusPanel({ status }: { status: BackupStatus }) {
  return (
    <section className="section" aria-labelledby="backups">
      <h2 id="backups">Backups</h2>
      {status.kind === "operator" ? (
        <p className="muted">
          The database at DATABASE_URL is backed up by its operator (see docs/operations.md, "Backups").
        </p>
      ) : (
        <>
          {status.archivingFailure ? (
            <p className="alert alert--error" role="alert">
              {`WAL archiving is failing: ${status.archivingFailure.wal ?? "a segment"} could not be archived (last attempt ${formatStoreDateTime(status.archivingFailure.failedAt)}). Orders since the last archived WAL are not backed up; check that BACKUP_DIR is writable.`}
            </p>
          ) : null}
          {status.baseBackupOverdue ? (
            <p className="alert alert--error" role="alert">
              No base backup is younger than 25 hours. Run npm run backup, and check the server log for why the daily
              one failed.
            </p>
          ) : null}
          <ul className="figures">
            <li className="card figure">
              <span className="figure__label">Last base backup</span>
              {status.lastBaseBackup ? (
                <>
                  <time className="figure__value" dateTime={status.lastBaseBackup.finishedAt}>
                    {formatStoreDateTime(status.lastBaseBackup.finishedAt)}
                  </time>
                  <span className="figure__note">{`${status.lastBaseBackup.name}, ${formatMegabytes(status.lastBaseBackup.bytes)}`}</span>
                </>
              ) : (
                <span className="figure__value">None yet</span>
              )}
            </li>
            <li className="card figure">
              <span className="figure__label">Last archived WAL</span>
              {status.lastArchivedWal ? (
                <>
                  <time className="figure__value" dateTime={status.lastArchivedWal.archivedAt}>
                    {formatStoreDateTime(status.lastArchivedWal.archivedAt)}
                  </time>
                  <span className="figure__note">{status.lastArchivedWal.name}</span>
                </>
              ) : (
                <span className="figure__value">None yet</span>
              )}
            </li>
          </ul>
        </>
      )}
    </section>
  );
}
