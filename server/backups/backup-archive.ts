import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import {
  chainBreaks,
  parseArchivedSegmentFile,
  parseHistoryFileName,
  parseLsn,
  parseSegmentName,
  segmentHeaderProblem,
  segmentOf,
  timelineOfPosition,
  walChain,
  type ArchivedSegment,
  type ChainBreak,
  type WalChain,
} from "./wal-files";

/**
 * BACKUP_DIR holds two folders: `wal/`, where PostgreSQL's archiver puts every finished WAL segment
 * (server/backups/wal-command.mjs: compressed, a temporary name, fsync, rename), and `base/`, one
 * folder per base backup: `data/` (the cluster as copied, with its backup_label and passwords),
 * `files/` (the rest of DATA_DIR, such as uploaded photos) and `manifest.json`. A backup being written sits in `base/.tmp-<name>` and is
 * renamed when whole, so every folder without a dot is complete.
 */
export type BackupLayout = { root: string; walDir: string; baseDir: string };

export function backupLayout(backupDir: string): BackupLayout {
  return { root: backupDir, walDir: path.join(backupDir, "wal"), baseDir: path.join(backupDir, "base") };
}

export type BaseBackupManifest = {
  name: string;
  startedAt: string;
  /** When pg_backup_stop answered: the backup restores to this moment or any later one. */
  finishedAt: string;
  timeline: number;
  startLsn: string;
  stopLsn: string;
  /** The first WAL segment a restore of this backup needs. */
  startWalFile: string;
  stopWalFile: string;
  walSegmentBytes: number;
  /** pg_control's system identifier, also written in every WAL segment of the cluster. */
  systemIdentifier: string;
  postgresVersion: string;
  /** Bytes of the cluster copy, and of the other files of DATA_DIR. */
  databaseBytes: number;
  filesBytes: number;
};

export type BaseBackup = { dir: string; manifest: BaseBackupManifest };

export const DEFAULT_SEGMENT_BYTES = 16 * 1024 * 1024;

/** The complete base backups, oldest first. */
export async function readBaseBackups(layout: BackupLayout): Promise<BaseBackup[]> {
  const entries = await fs.readdir(layout.baseDir, { withFileTypes: true }).catch(() => []);
  const backups: BaseBackup[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const dir = path.join(layout.baseDir, entry.name);
    try {
      const manifest = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8")) as BaseBackupManifest;
      backups.push({ dir, manifest });
    } catch {
      // A folder without a readable manifest is not a backup this code wrote; it is left alone.
    }
  }
  return backups.sort((a, b) => a.manifest.finishedAt.localeCompare(b.manifest.finishedAt));
}

export type WalArchiveListing = {
  segments: ArchivedSegment[];
  histories: Map<number, string>;
  /** Every file name in the archive folder (segments, histories, .partial and .backup files). */
  names: string[];
  /** What the archive's files take on disk. */
  storedBytes: number;
};

export async function readWalArchive(layout: BackupLayout): Promise<WalArchiveListing> {
  const names = (await fs.readdir(layout.walDir).catch(() => [] as string[])).sort();
  const segments: ArchivedSegment[] = [];
  const histories = new Map<number, string>();
  let storedBytes = 0;
  for (const name of names) {
    const file = path.join(layout.walDir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) continue;
    storedBytes += stat.size;
    const archived = parseArchivedSegmentFile(name);
    if (archived) {
      // Written before compression or after: either holds the segment (never both, wal-command.mjs).
      if (segments.at(-1)?.name === archived.segment) continue;
      const bytes = archived.compressed ? await unpackedSize(file) : stat.size;
      segments.push({ name: archived.segment, bytes, archivedAt: stat.mtime, file: name });
    } else {
      const timeline = parseHistoryFileName(name);
      if (timeline !== null) histories.set(timeline, await fs.readFile(file, "utf8"));
    }
  }
  return { segments, histories, names, storedBytes };
}

export type ArchiveAssessment = {
  chain: WalChain;
  segmentBytes: number;
  /** Backups on the newest timeline's history whose own WAL was archived: a restore can start there. */
  onHistory: BaseBackup[];
  /** Those with every WAL segment after them archived and whole: they restore to the last archived WAL. */
  restorable: BaseBackup[];
  /** Missing or damaged segments after the oldest backup on the history, in order. */
  chainBreaks: ChainBreak[];
  /**
   * The times a restore can aim at: from the oldest backup on the history to the last archived WAL.
   * A missing or damaged segment inside it fails the restores that need it, naming it.
   */
  span: { from: Date; to: Date } | null;
};

/** What the archive can restore, read from BACKUP_DIR. */
export async function assessArchive(
  layout: BackupLayout,
): Promise<ArchiveAssessment & { backups: BaseBackup[]; listing: WalArchiveListing }> {
  const backups = await readBaseBackups(layout);
  const listing = await readWalArchive(layout);
  const newest = backups.at(-1)?.manifest;
  const headers = new Map<string, Buffer | null>();
  for (const segment of listing.segments)
    headers.set(segment.name, await readHeader(path.join(layout.walDir, segment.file ?? segment.name)));
  // Without a backup, the newest segment's own header says the cluster's segment size.
  const lastHeader = listing.segments.length > 0 ? headers.get(listing.segments.at(-1)!.name) : null;
  const segmentBytes =
    newest?.walSegmentBytes ??
    (lastHeader && lastHeader.length >= 40 ? lastHeader.readUInt32LE(32) : DEFAULT_SEGMENT_BYTES);
  const assessment = assessListing(backups, listing, segmentBytes, (name, segment) => {
    if (!newest) return null;
    const header = headers.get(name);
    return header
      ? segmentHeaderProblem(header, segment, segmentBytes, newest.systemIdentifier)
      : "it cannot be unpacked";
  });
  return { ...assessment, backups, listing };
}

export function assessListing(
  backups: BaseBackup[],
  listing: Pick<WalArchiveListing, "segments" | "histories">,
  segmentBytes: number,
  headerProblem: (name: string, segment: bigint) => string | null = () => null,
): ArchiveAssessment {
  const chain = walChain(listing.segments, listing.histories, segmentBytes);
  const archived = new Map(listing.segments.map((segment) => [segment.name, segment]));
  const startSegment = (backup: BaseBackup) => segmentOf(parseLsn(backup.manifest.startLsn), segmentBytes);
  const stopSegment = (backup: BaseBackup) => parseSegmentName(backup.manifest.stopWalFile, segmentBytes)!.segment;
  const onHistory = backups.filter(
    (backup) =>
      timelineOfPosition(parseLsn(backup.manifest.startLsn), chain.history) === backup.manifest.timeline &&
      chain.lastSegment !== null &&
      stopSegment(backup) <= chain.lastSegment,
  );
  const oldest = onHistory[0];
  const breaks = oldest ? chainBreaks(chain, startSegment(oldest), segmentBytes, archived, headerProblem) : [];
  const lastBreak = breaks.at(-1);
  // A backup restores to the last archived WAL only when no segment after it is missing or damaged.
  const restorable = onHistory.filter((backup) => !lastBreak || startSegment(backup) > lastBreak.segmentNumber);
  const from = oldest ? new Date(oldest.manifest.finishedAt) : null;
  const span =
    from && chain.last ? { from, to: new Date(Math.max(from.getTime(), chain.last.archivedAt.getTime())) } : null;
  return { chain, segmentBytes, onHistory, restorable, chainBreaks: breaks, span };
}

/** The first 40 bytes of a segment (unpacked when compressed); null when a compressed file cannot be read. */
async function readHeader(file: string): Promise<Buffer | null> {
  const compressed = file.endsWith(".gz");
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(compressed ? 64 * 1024 : 40);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (!compressed) return buffer.subarray(0, bytesRead);
    try {
      // The start of the stream is enough: a sync flush unpacks what it holds without the end.
      const unpacked = zlib.gunzipSync(buffer.subarray(0, bytesRead), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      return unpacked.subarray(0, 40);
    } catch {
      return null;
    }
  } finally {
    await handle.close();
  }
}

/** A gzip file's last four bytes: its content's size (modulo 4 GiB; segments are at most 1 GiB). */
async function unpackedSize(file: string): Promise<number> {
  const handle = await fs.open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < 18) return 0;
    const trailer = Buffer.alloc(4);
    await handle.read(trailer, 0, 4, size - 4);
    return trailer.readUInt32LE(0);
  } finally {
    await handle.close();
  }
}
