import fs from "node:fs/promises";
import path from "node:path";

/** What to do with one entry of the tree being copied. */
export type CopyRule = "copy" | "skip" | "empty";

export type CopyTreeOptions = {
  /** By path relative to the source root ("pg_wal", "base/5/1259"); "empty" keeps a folder but not its content. */
  rule?: (relativePath: string, isDirectory: boolean) => CopyRule;
  /** Owner of everything written (PostgreSQL's user, when a cluster is restored under root). */
  owner?: { uid: number; gid: number } | null;
  /** Leave files that already exist at the destination as they are. */
  keepExisting?: boolean;
  signal?: AbortSignal;
};

const PARALLEL_COPIES = 4;

/**
 * Copies a folder tree and makes it durable (every file and folder fsynced), so that a copy
 * renamed into place afterwards survives a power cut whole. Entries that vanish while the tree is
 * read are passed over: a running cluster deletes files as it goes, and WAL replay restores them.
 */
export async function copyTree(
  source: string,
  destination: string,
  options: CopyTreeOptions = {},
): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let copied = 0;
  const directories: string[] = [];
  const files: { from: string; to: string }[] = [];

  const walk = async (relative: string) => {
    const to = path.join(destination, relative);
    await fs.mkdir(to, { recursive: true, mode: 0o700 });
    if (options.owner) await fs.chown(to, options.owner.uid, options.owner.gid);
    directories.push(to);
    let entries;
    try {
      entries = await fs.readdir(path.join(source, relative), { withFileTypes: true });
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const child = path.join(relative, entry.name);
      const rule = options.rule?.(child, entry.isDirectory()) ?? "copy";
      if (rule === "skip") continue;
      if (entry.isDirectory()) {
        if (rule === "empty") {
          const emptyDir = path.join(destination, child);
          await fs.mkdir(emptyDir, { recursive: true, mode: 0o700 });
          if (options.owner) await fs.chown(emptyDir, options.owner.uid, options.owner.gid);
          directories.push(emptyDir);
        } else {
          await walk(child);
        }
      } else if (entry.isSymbolicLink()) {
        const target = await fs
          .readlink(path.join(source, child))
          .catch((error) => (isGone(error) ? null : Promise.reject(error)));
        if (target !== null) await fs.symlink(target, path.join(destination, child));
      } else if (entry.isFile()) {
        files.push({ from: path.join(source, child), to: path.join(destination, child) });
      }
    }
  };
  await walk("");

  const copyOne = async ({ from, to }: { from: string; to: string }) => {
    options.signal?.throwIfAborted();
    if (options.keepExisting && (await exists(to))) return;
    try {
      await fs.copyFile(from, to);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    const handle = await fs.open(to, "r");
    try {
      await handle.sync();
      bytes += (await handle.stat()).size;
      copied++;
      if (options.owner) await handle.chown(options.owner.uid, options.owner.gid);
    } finally {
      await handle.close();
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_COPIES }, async () => {
      while (next < files.length) await copyOne(files[next++]!);
    }),
  );
  for (const dir of directories.reverse()) await syncDirectory(dir);
  return { bytes, files: copied };
}

/** Makes the names in a folder (a rename, a new file) durable. */
export async function syncDirectory(dir: string) {
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if (isGone(error)) return false;
    throw error;
  }
}

function isGone(error: unknown): boolean {
  return (error as { code?: string }).code === "ENOENT";
}
