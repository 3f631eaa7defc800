import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runningPostmaster } from "../db/embedded-postgres";
import { EMBEDDED_DATABASE_NAME, embeddedClusterDir } from "../start-up/open-database";
import { assessArchive, backupLayout, type ArchiveAssessment, type BaseBackup } from "./backup-archive";
import { copyTree, exists, syncDirectory } from "./copy-tree";
import { MOVED_ASIDE_PREFIX, RESTORE_WORK_PREFIX } from "./data-dir";
import { recoverCluster } from "./recovery";
import type { RestoreTime } from "./restore-time";
import { archiveCurrentWal } from "./wal-archive";

/**
 * `npm run restore`: a base backup and the archived WAL after it become DATA_DIR's cluster again.
 * Recovery runs in a folder beside the cluster (DATA_DIR/.restore-…); only when it has succeeded
 * is the existing cluster moved aside (DATA_DIR/before-restore-<time>/postgres, never deleted) and
 * the new one renamed into place. Any failure before that leaves DATA_DIR as it was.
 */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export type RestoreRequest = {
  dataDir: string;
  backupDir: string;
  target: RestoreTime | null;
  replace: boolean;
  progress?: (line: string) => void;
};

export type RestoreOutcome = {
  backup: BaseBackup;
  lastTransactionAt: Date | null;
  /** Where the cluster that was there went, if one was. */
  movedAsideTo: string | null;
  /** Files of the backup put back into DATA_DIR (existing files are never overwritten). */
  filesRestored: number;
};

/** How long the restored cluster may take to archive its new timeline before it is stopped. */
const ARCHIVE_WAIT_MS = 30_000;

export async function restore(request: RestoreRequest): Promise<RestoreOutcome> {
  const clusterDir = embeddedClusterDir(request.dataDir);
  refuseWhileRunning(clusterDir);
  const existing = await holdsCluster(clusterDir);
  if (existing && !request.replace) {
    throw new RestoreRefused(
      `${clusterDir} already holds a database; add --replace to move it aside (it is kept, never deleted)`,
    );
  }

  const layout = backupLayout(request.backupDir);
  const assessment = await assessArchive(layout);
  const backup = chooseBackup(assessment, request.target, layout.baseDir);

  const startedAt = new Date();
  await fs.mkdir(request.dataDir, { recursive: true });
  const workDir = path.join(request.dataDir, `${RESTORE_WORK_PREFIX}${crypto.randomBytes(4).toString("hex")}`);
  await fs.mkdir(workDir, { mode: 0o700 });
  try {
    const recoveredDir = path.join(workDir, "postgres");
    request.progress?.(`Restoring base backup ${backup.manifest.name}`);
    const recovered = await recoverCluster({
      backup,
      assessment,
      walDir: layout.walDir,
      clusterDir: recoveredDir,
      target: request.target,
      archiveNewTimeline: true,
      progress: request.progress,
    });
    try {
      // The new timeline's first segment and history file reach the archive before the cluster is
      // handed over, so the next restore can follow it.
      const archived = await archiveCurrentWal(recovered.database.adminUrl, layout.walDir, ARCHIVE_WAIT_MS);
      if (!archived.archived) {
        request.progress?.(
          `Warning: WAL segment ${archived.segment} is not in the archive yet; the store archives it when it starts`,
        );
      }
    } finally {
      await recovered.database.stop();
    }
    if (runningPostmaster(recoveredDir)) throw new Error(`PostgreSQL did not stop in ${recoveredDir}`);

    refuseWhileRunning(clusterDir);
    let movedAsideTo: string | null = null;
    if (await exists(clusterDir)) {
      if (await holdsCluster(clusterDir)) {
        movedAsideTo = await freeFolder(request.dataDir, `${MOVED_ASIDE_PREFIX}${stamp(startedAt)}`);
        await fs.mkdir(movedAsideTo);
        await fs.rename(clusterDir, path.join(movedAsideTo, "postgres"));
      } else {
        await fs.rmdir(clusterDir); // an empty folder: nothing to keep
      }
    }
    await fs.rename(recoveredDir, clusterDir);
    await syncDirectory(request.dataDir);
    const filesRestored = await restoreFiles(backup, request.dataDir);
    return { backup, lastTransactionAt: recovered.lastTransactionAt, movedAsideTo, filesRestored };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

export type VerifyOutcome = {
  backup: BaseBackup;
  lastTransactionAt: Date | null;
  counts: { users: number; products: number; orders: number };
};

/**
 * `npm run backup:verify`: the newest backup and all WAL after it, recovered in a temporary
 * folder with archiving off (the archive is only read), then asked how many users, products and
 * orders it holds, as the store's role would see them. The copy gets passwords of its own, and
 * the folder is removed afterwards. Works beside a running store.
 */
export async function verifyNewestBackup(backupDir: string, progress?: (line: string) => void): Promise<VerifyOutcome> {
  const layout = backupLayout(backupDir);
  const assessment = await assessArchive(layout);
  const backup = chooseBackup(assessment, null, layout.baseDir);
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), "waqt-verify-"));
  try {
    progress?.(`Restoring base backup ${backup.manifest.name} into ${workDir}`);
    const recovered = await recoverCluster({
      backup,
      assessment,
      walDir: layout.walDir,
      clusterDir: path.join(workDir, "postgres"),
      target: null,
      archiveNewTimeline: false,
      freshPasswords: true,
      progress,
    });
    try {
      // What the store does at its next start (a backup made before the store had its own role).
      await recovered.database.prepareStoreDatabase(EMBEDDED_DATABASE_NAME, { create: false });
      const client = new pg.Client({ connectionString: recovered.database.storeUrlFor(EMBEDDED_DATABASE_NAME) });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM products)::int AS products,
                  (SELECT count(*) FROM orders)::int AS orders`,
        );
        return { backup, lastTransactionAt: recovered.lastTransactionAt, counts: rows[0] };
      } finally {
        await client.end();
      }
    } finally {
      await recovered.database.stop();
    }
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

/** The newest backup that reaches the target: to the latest point, the newest with all WAL after it. */
function chooseBackup(
  assessment: ArchiveAssessment & { backups: BaseBackup[] },
  target: RestoreTime | null,
  baseDir: string,
): BaseBackup {
  const { backups, onHistory, restorable, span, chainBreaks } = assessment;
  if (backups.length === 0)
    throw new RestoreRefused(`No base backup in ${baseDir}; BACKUP_DIR must be the folder that holds them`);
  if (onHistory.length === 0 || !span) {
    const newest = backups.at(-1)!.manifest;
    throw new RestoreRefused(
      `WAL segment ${newest.stopWalFile}, the end of backup ${newest.name}, is missing from the archive`,
    );
  }
  if (target) {
    const instant = target.instant.getTime();
    if (instant < span.from.getTime() || instant > span.to.getTime()) {
      throw new RestoreRefused(
        `${target.instant.toISOString()} is outside the span that can be restored: ${span.from.toISOString()} to ${span.to.toISOString()}`,
      );
    }
    return onHistory.filter((backup) => new Date(backup.manifest.finishedAt).getTime() <= instant).at(-1)!;
  }
  const newest = restorable.at(-1);
  if (newest) return newest;
  const chainBreak = chainBreaks.at(-1)!;
  throw new RestoreRefused(
    `WAL segment ${chainBreak.segment} ${chainBreak.detail}; no backup restores past it to the latest point`,
  );
}

function refuseWhileRunning(clusterDir: string) {
  const running = runningPostmaster(clusterDir);
  if (running) {
    throw new RestoreRefused(
      `The store is running on this DATA_DIR (PostgreSQL process ${running.pid}); stop it before restoring`,
    );
  }
}

/** A cluster, or anything else worth keeping: only a missing or empty folder counts as none. */
async function holdsCluster(clusterDir: string): Promise<boolean> {
  const entries = await fs.readdir(clusterDir).catch(() => [] as string[]);
  return entries.length > 0;
}

/** The backup's other DATA_DIR files (photos, the session secret) where they are missing. */
async function restoreFiles(backup: BaseBackup, dataDir: string): Promise<number> {
  const source = path.join(backup.dir, "files");
  if (!(await exists(source))) return 0;
  return (await copyTree(source, dataDir, { keepExisting: true })).files;
}

async function freeFolder(parent: string, name: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const candidate = path.join(parent, attempt === 1 ? name : `${name}-${attempt}`);
    if (!(await exists(candidate))) return candidate;
  }
}

/** 2026-11-23T10:15:00.000Z → 20261123T101500Z (a folder name on any file system). */
function stamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}
