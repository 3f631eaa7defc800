import fs from "node:fs/promises";
import path from "node:path";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the files of one folder that the store wrote (`isOurs`, by name) and last changed more
 * than `keepDays` before `now`; a folder never made holds none. Answers how many went. The mail
 * files under DATA_DIR/outbox (server/mail/mail-transport.ts) and the text files under
 * DATA_DIR/messages (server/providers/message-channels/text-files.ts) both hold customers'
 * details and live links, and are kept for the same while (MAIL_FILES_KEEP_DAYS).
 */
export async function removeFilesOlderThan(
  dir: string,
  options: { keepDays: number; now: Date; isOurs: (name: string) => boolean },
): Promise<number> {
  const cutoff = options.now.getTime() - options.keepDays * DAY_MS;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!options.isOurs(name)) continue;
    const file = path.join(dir, name);
    const stats = await fs.lstat(file).catch(() => null);
    if (!stats?.isFile() || stats.mtimeMs >= cutoff) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
