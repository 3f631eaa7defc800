import path from "node:path";
import { holdsSecret } from "../mail/eml-files";
import { OLD_DEFAULT_BACKUP_FOLDER } from "./backup-dir";
import type { CopyRule } from "./copy-tree";

/**
 * What lives in DATA_DIR beside the cluster: the generated session secret, the outbox's .eml files,
 * the texts written as files (photos live in the database) and whatever the store keeps there
 * later. Base backups copy all
 * of it except the cluster itself (copied through PostgreSQL's backup API), the backups (when
 * BACKUP_DIR is inside DATA_DIR, or left in DATA_DIR/backups, the old default), clusters a restore
 * moved aside, a restore's unfinished work, and mails that carry a secret: a password reset mail
 * holds a live link, which must never outlive the mail in a backup (server/mail/eml-files.ts).
 */
export const MOVED_ASIDE_PREFIX = "before-restore-";
export const RESTORE_WORK_PREFIX = ".restore-";

export function dataDirFileRule(dataDir: string, clusterDir: string, backupDir: string) {
  const leftOut = [clusterDir, backupDir].map((dir) => path.relative(dataDir, dir));
  return (relativePath: string): CopyRule => {
    if (leftOut.includes(relativePath)) return "skip";
    if (!relativePath.includes(path.sep)) {
      if (relativePath.startsWith(MOVED_ASIDE_PREFIX) || relativePath.startsWith(RESTORE_WORK_PREFIX)) return "skip";
      if (relativePath === OLD_DEFAULT_BACKUP_FOLDER) return "skip";
    }
    if (holdsSecret(path.basename(relativePath))) return "skip";
    return "copy";
  };
}
