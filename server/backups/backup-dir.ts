import fs from "node:fs";
import path from "node:path";
import type { Config } from "../settings/config";

/**
 * Where BACKUP_DIR is, against DATA_DIR. It defaults to a folder beside DATA_DIR (./data →
 * ./data-backups), never inside it: the disk the backups are for must not take them along
 * (server/settings/config.ts). Before 2026-11-25 the default was DATA_DIR/backups; a store upgraded from
 * then finds its archive there and moves it to BACKUP_DIR once, so the chain of backups goes on.
 */
export const OLD_DEFAULT_BACKUP_FOLDER = "backups";

/**
 * Moves DATA_DIR/backups (the old default) to BACKUP_DIR when that is missing or empty, with one
 * rename. Answers what it did, or why it could not (another file system, a BACKUP_DIR that already
 * holds files), for the log; null when there was nothing to move.
 */
export function adoptBackupsFromOldDefault(config: Pick<Config, "dataDir" | "backupDir">): string | null {
  const old = path.join(config.dataDir, OLD_DEFAULT_BACKUP_FOLDER);
  if (path.resolve(config.backupDir) === old) return null;
  const held = ["wal", "base"].some((folder) => fs.existsSync(path.join(old, folder)));
  if (!held) return null;
  const target = config.backupDir;
  const targetEntries = fs.existsSync(target) ? fs.readdirSync(target) : null;
  if (targetEntries && targetEntries.length > 0) {
    return `${old} holds backups from before BACKUP_DIR moved beside DATA_DIR; ${target} already holds files, so they stay where they are (restore from them with BACKUP_DIR=${old})`;
  }
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (targetEntries) fs.rmdirSync(target);
    fs.renameSync(old, target);
  } catch (error) {
    const reason = (error as { code?: string }).code === "EXDEV" ? "it is on another file system" : String(error);
    return `${old} holds backups from before BACKUP_DIR moved beside DATA_DIR, and could not be moved to ${target} (${reason}): move it there while the store is stopped`;
  }
  return `Moved the backups in ${old} to ${target}, BACKUP_DIR's new default (beside DATA_DIR, not inside it)`;
}

/**
 * True when BACKUP_DIR and DATA_DIR are on one file system (the nearest existing folder of each):
 * a lost disk would then take the backups along.
 */
export function backupDirSharesDataDirDisk(config: Pick<Config, "dataDir" | "backupDir">): boolean {
  return deviceOf(config.dataDir) === deviceOf(config.backupDir);
}

function deviceOf(dir: string): number {
  let current = path.resolve(dir);
  for (;;) {
    try {
      return fs.statSync(current).dev;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return -1;
      current = parent;
    }
  }
}

/**
 * A new, empty database must not start over the backups of an earlier one: its WAL segments would
 * have the same names as those in the archive (archiving would fail), and someone who deleted
 * DATA_DIR most likely wants it back. The start stops with one line saying what to do.
 */
export class BackupsOfAnEarlierDatabase extends Error {
  override name = "BackupsOfAnEarlierDatabase";
  constructor(backupDir: string) {
    super(
      `BACKUP_DIR (${backupDir}) holds the backups of an earlier database, and DATA_DIR has none: bring it back with npm run restore, or move ${backupDir} away to start a new, empty store`,
    );
  }
}

/** True when BACKUP_DIR holds archived WAL or a base backup. */
export function holdsBackups(backupDir: string): boolean {
  const entries = (folder: string) => {
    try {
      return fs.readdirSync(path.join(backupDir, folder));
    } catch {
      return [];
    }
  };
  return (
    entries("wal").some((name) => /^[0-9A-F]{24}/.test(name)) || entries("base").some((name) => !name.startsWith("."))
  );
}
