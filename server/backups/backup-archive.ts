import fs from "node:fs/promises";
import path from "node:path";
import {
  chainBreaks,
  parseHistoryFileName,
  parseLsn,
  parseSegmentName,
  segmentHeaderProblem,
  segmentOf,
  SEGMENT_NAME,
  timelineOfPosition,
  walChain,
  type ArchivedSegment,
  type ChainBreak,
  type WalChain,
} from "./wal-files";

/**
 * BACKUP_DIR holds two folders: `wal/`, where PostgreSQL's archiver puts every finished WAL segment
 * (basic_archive: a temporary name, fsync, rename), and `base/`, one folder per base backup:
 * `data/` (the cluster as copied, with its backup_label), `files/` (the rest of DATA_DIR, such as
 * uploaded photos) and `manifest.json`. A backup being written sits in `base/.tmp-<name>` and is
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
};

export async function readWalArchive(layout: BackupLayout): Promise<WalArchiveListing> {
  const names = (await fs.readdir(layout.walDir).catch(() => [] as string[])).sort();
  const segments: ArchivedSegment[] = [];
  const histories = new Map<number, string>();
  for (const name of names) {
    if (SEGMENT_NAME.test(name)) {
      const stat = await fs.stat(path.join(layout.walDir, name)).catch(() => null);
      if (stat) segments.push({ name, bytes: stat.size, archivedAt: stat.mtime });
    } else {
      const timeline = parseHistoryFileName(name);
      if (timeline !== null) histories.set(timeline, await fs.readFile(path.join(layout.walDir, name), "utf8"));
    }
  }
  return { segments, histories, names };
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
export async function assessArchive(layout: BackupLayout): Promise<ArchiveAssessment & { backups: BaseBackup[] }> {
  const backups = await readBaseBackups(layout);
  const listing = await readWalArchive(layout);
  const newest = backups.at(-1)?.manifest;
  const segmentBytes = newest?.walSegmentBytes ?? DEFAULT_SEGMENT_BYTES;
  const headers = new Map<string, Buffer>();
  for (const segment of listing.segments)
    headers.set(segment.name, await readHeader(path.join(layout.walDir, segment.name)));
  const assessment = assessListing(backups, listing, segmentBytes, (name, segment) =>
    newest ? segmentHeaderProblem(headers.get(name)!, segment, segmentBytes, newest.systemIdentifier) : null,
  );
  return { ...assessment, backups };
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

async function readHeader(file: string): Promise<Buffer> {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(40);
    const { bytesRead } = await handle.read(buffer, 0, 40, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
