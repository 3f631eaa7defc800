import path from "node:path";
import type { CopyRule } from "./copy-tree";

/**
 * What lives in DATA_DIR beside the cluster: the generated session secret, uploaded files (product
 * photos) and whatever the store keeps there later. Base backups copy all of it except the
 * cluster itself (copied through PostgreSQL's backup API), the backups (when BACKUP_DIR is inside
 * DATA_DIR), clusters a restore moved aside, and a restore's unfinished work.
 */
export const MOVED_ASIDE_PREFIX = "before-restore-";
export const RESTORE_WORK_PREFIX = ".restore-";

export function dataDirFileRule(dataDir: string, clusterDir: string, backupDir: string) {
  const leftOut = [clusterDir, backupDir].map((dir) => path.relative(dataDir, dir));
  return (relativePath: string): CopyRule => {
    if (leftOut.includes(relativePath)) return "skip";
    if (!relativePath.includes(path.sep)) {
      if (relativePath.startsWith(MOVED_ASIDE_PREFIX) || relativePath.startsWith(RESTORE_WORK_PREFIX)) return "skip";
    }
    return "copy";
  };
}
