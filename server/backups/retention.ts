import fs from "node:fs/promises";
import path from "node:path";
import type { BackupLayout, BaseBackup } from "./backup-archive";
import { readBaseBackups } from "./backup-archive";
import { parseSegmentName } from "./wal-files";

export type RetentionPlan = {
  keptBackups: string[];
  deletedBackups: string[];
  /** Archive files (segments, .partial and .backup files) older than every kept backup. */
  deletedWal: string[];
};

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * "000000010000000000000003", "000000010000000000000003.gz" (compressed), "000000010000000000000003.partial",
 * "000000010000000000000003.00000028.backup"
 */
const SEGMENT_FILE = /^([0-9A-F]{24})(?:\.gz|\.partial|\.[0-9A-F]{8}\.backup)?$/;

/**
 * Keeps every base backup finished within `keepDays`, and the newest one whatever its age; then
 * the WAL that the oldest kept backup needs onwards. A segment is needed from the kept backups'
 * first start segment on, on any timeline, so only files before it go: the chain after each kept
 * backup is never cut. History files stay (a few bytes each, and restores follow them).
 */
export function planRetention(
  backups: BaseBackup[],
  walFileNames: string[],
  keepDays: number,
  now: Date,
): RetentionPlan {
  const sorted = [...backups].sort((a, b) => a.manifest.finishedAt.localeCompare(b.manifest.finishedAt));
  const newest = sorted.at(-1);
  const cutoff = now.getTime() - keepDays * DAY_MS;
  const kept = sorted.filter((backup) => backup === newest || new Date(backup.manifest.finishedAt).getTime() >= cutoff);
  const deleted = sorted.filter((backup) => !kept.includes(backup));
  const oldestKept = kept[0];
  const deletedWal: string[] = [];
  if (oldestKept) {
    const bytes = oldestKept.manifest.walSegmentBytes;
    const firstNeeded = parseSegmentName(oldestKept.manifest.startWalFile, bytes)!.segment;
    for (const name of walFileNames) {
      const match = SEGMENT_FILE.exec(name);
      const parsed = match ? parseSegmentName(match[1]!, bytes) : null;
      if (parsed && parsed.segment < firstNeeded) deletedWal.push(name);
    }
  }
  return {
    keptBackups: kept.map((backup) => backup.manifest.name),
    deletedBackups: deleted.map((backup) => backup.manifest.name),
    deletedWal,
  };
}

/** Applies the plan to BACKUP_DIR: old backups first, then the WAL that only they needed. */
export async function applyRetention(layout: BackupLayout, keepDays: number, now: Date): Promise<RetentionPlan> {
  const backups = await readBaseBackups(layout);
  const walFileNames = await fs.readdir(layout.walDir).catch(() => [] as string[]);
  const plan = planRetention(backups, walFileNames, keepDays, now);
  for (const name of plan.deletedBackups) {
    // Renamed first, so that a deletion cut short leaves a temporary folder, never half a backup.
    const doomed = path.join(layout.baseDir, `.deleting-${name}`);
    await fs.rename(path.join(layout.baseDir, name), doomed);
    await fs.rm(doomed, { recursive: true, force: true });
  }
  for (const name of plan.deletedWal) await fs.rm(path.join(layout.walDir, name), { force: true });
  return plan;
}
