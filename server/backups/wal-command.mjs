/**
 * The embedded cluster's archive_command and restore_command (server/backups/wal-archive.ts writes
 * both command lines). Plain JavaScript, so that PostgreSQL's user runs it with node alone:
 *
 *   node wal-command.mjs archive <archive folder> <segment path (%p)> <file name (%f)>
 *   node wal-command.mjs restore <archive folder> <file name (%f)> <destination (%p)>
 *
 * A WAL segment is archived gzip-compressed, under its own name with ".gz" added: a segment ended
 * early by archive_timeout is mostly zeros (wal_recycle is off, so its tail was never used),
 * which gzip makes almost nothing of. History, .backup and .partial files are copied as they are.
 * Like PostgreSQL's basic_archive, a file is written under a temporary name, fsynced and renamed,
 * and the folder fsynced; archiving a file the archive already holds succeeds only when the
 * content is the same (PostgreSQL archives a segment again after a crash). Restoring reads a
 * plain file first (archives written before compression), then the ".gz" one.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

export const COMPRESSED_SUFFIX = ".gz";
const SEGMENT = /^[0-9A-F]{24}$/;

/** @param {string} walDir @param {string} source @param {string} name @returns {"archived" | "already archived"} */
export function archiveFile(walDir, source, name) {
  const content = fs.readFileSync(source);
  for (const held of [name, name + COMPRESSED_SUFFIX]) {
    const file = path.join(walDir, held);
    if (!fs.existsSync(file)) continue;
    if (contentOf(file).equals(content)) return "already archived";
    throw new Error(`the archive already holds ${held}, with other content`);
  }
  const compress = SEGMENT.test(name);
  const target = path.join(walDir, compress ? name + COMPRESSED_SUFFIX : name);
  const temporary = path.join(walDir, `.${path.basename(target)}.tmp`);
  const handle = fs.openSync(temporary, "w", 0o600);
  try {
    fs.writeFileSync(handle, compress ? zlib.gzipSync(content) : content);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  fs.renameSync(temporary, target);
  const dir = fs.openSync(walDir, "r");
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return "archived";
}

/** @param {string} walDir @param {string} name @param {string} destination @returns {boolean} false: the archive has no such file */
export function restoreFile(walDir, name, destination) {
  const plain = path.join(walDir, name);
  if (fs.existsSync(plain)) {
    fs.copyFileSync(plain, destination);
    return true;
  }
  if (!fs.existsSync(plain + COMPRESSED_SUFFIX)) return false;
  fs.writeFileSync(destination, contentOf(plain + COMPRESSED_SUFFIX));
  return true;
}

/** @param {string} file */
function contentOf(file) {
  const stored = fs.readFileSync(file);
  return file.endsWith(COMPRESSED_SUFFIX) ? zlib.gunzipSync(stored) : stored;
}

/** @param {string[]} args @returns {number} the exit code PostgreSQL reads */
function run(args) {
  const [command, walDir, first, second] = args;
  if (command === "archive" && walDir && first && second) {
    archiveFile(walDir, first, second);
    return 0;
  }
  // A file the archive lacks is an ordinary answer (PostgreSQL asks for history files that may
  // not exist): exit 1 without a word.
  if (command === "restore" && walDir && first && second) return restoreFile(walDir, first, second) ? 0 : 1;
  console.error("usage: wal-command.mjs archive <dir> <path> <name> | restore <dir> <name> <path>");
  return 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  try {
    process.exitCode = run(process.argv.slice(2));
  } catch (error) {
    console.error(
      `wal-command ${process.argv[2]} ${process.argv.at(-1)}: ${error instanceof Error ? error.message : error}`,
    );
    process.exitCode = 1;
  }
}
