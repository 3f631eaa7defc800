import fs from "node:fs/promises";
import path from "node:path";
import { postgresUserIds, startEmbeddedPostgres, type EmbeddedDatabase } from "../db/embedded-postgres";
import type { ArchiveAssessment, BaseBackup } from "./backup-archive";
import { copyTree } from "./copy-tree";
import type { RestoreTime } from "./restore-time";
import { restoreCommand, walArchiveSettings } from "./wal-archive";
import {
  formatLsn,
  parseLsn,
  parseSegmentName,
  segmentName,
  segmentOf,
  timelineOfSegment,
  type ChainBreak,
} from "./wal-files";

/**
 * Point-in-time recovery of one base backup into a new cluster folder, as the manual's "Recovering
 * Using a Continuous Archive Backup" describes it: the backup's files, an empty pg_wal, a
 * recovery.signal file and a restore_command that copies segments from the archive. PostgreSQL
 * replays the WAL and, at the end or at the target, starts a new timeline ("promotes").
 *
 * Recovery must never promote a cluster that stopped short: a new timeline would be archived
 * beside the old one, and later restores would follow it. So the end is checked before:
 * - to a time, PostgreSQL itself refuses to promote when WAL ends before the target; when it ended
 *   at the last archived segment, the archive simply has no later commit, and the run is repeated
 *   to the end;
 * - to the latest point, a first run replays to the first record of the last archived segment and
 *   shuts down there ("shutdown" action), failing if the WAL ends before; the second run replays
 *   the rest of that segment and promotes.
 */
export class RecoveryError extends Error {
  override name = "RecoveryError";
}

export type RecoveryRequest = {
  backup: BaseBackup;
  assessment: ArchiveAssessment;
  walDir: string;
  /** The new cluster's folder (made here; its parent must exist). */
  clusterDir: string;
  target: RestoreTime | null;
  /**
   * Archive the new timeline into walDir (a restore: the store goes on from it), or leave the archive
   * untouched (a verification in a temporary folder).
   */
  archiveNewTimeline: boolean;
  /** Give the recovered cluster passwords of its own (a verification's copy), not the backup's. */
  freshPasswords?: boolean;
  progress?: (line: string) => void;
};

export type RecoveredCluster = {
  database: EmbeddedDatabase;
  /** When the last transaction replayed committed, as PostgreSQL reported it. */
  lastTransactionAt: Date | null;
};

export async function recoverCluster(request: RecoveryRequest): Promise<RecoveredCluster> {
  const { backup, assessment, clusterDir } = request;
  const owner = postgresUserIds();
  await copyTree(path.join(backup.dir, "data"), clusterDir, { owner });
  await fs.chmod(clusterDir, 0o700);
  const signal = path.join(clusterDir, "recovery.signal");
  await fs.writeFile(signal, "");
  if (owner) await fs.chown(signal, owner.uid, owner.gid);

  if (owner) await giveArchiveTo(request.walDir, owner);

  const segmentBytes = backup.manifest.walSegmentBytes;
  const lastSegment = assessment.chain.lastSegment!;
  const stopSegment = parseSegmentName(backup.manifest.stopWalFile, segmentBytes)!.segment;
  const base: Record<string, string> = {
    restore_command: restoreCommand(request.walDir),
    recovery_target_timeline: "latest",
    ...(request.archiveNewTimeline ? walArchiveSettings(request.walDir) : { archive_mode: "off" }),
  };
  const run = (settings: Record<string, string>) =>
    startRecovery(clusterDir, { ...base, ...settings }, request.walDir, request.freshPasswords ?? false);
  const failure = (log: string) => new RecoveryError(describeFailure(log, request, segmentBytes));

  if (request.target) {
    request.progress?.(`Replaying WAL up to ${request.target.instant.toISOString()}`);
    const attempt = await run({
      recovery_target_time: request.target.postgres,
      recovery_target_inclusive: "true",
      recovery_target_action: "promote",
    });
    if (attempt.database) return { database: attempt.database, lastTransactionAt: lastTransactionTime(attempt.log) };
    const replayedTo = redoEnd(attempt.log);
    const targetMissed = attempt.log.includes("recovery ended before configured recovery target was reached");
    if (!targetMissed || replayedTo === null || segmentOf(replayedTo, segmentBytes) < lastSegment)
      throw failure(attempt.log);
    // Every archived commit is at or before the target: the restore is the latest point.
  } else if (lastSegment > stopSegment) {
    request.progress?.("Replaying WAL up to the last archived segment");
    const firstPass = await run({
      recovery_target_lsn: formatLsn(lastSegment * BigInt(segmentBytes)),
      recovery_target_inclusive: "true",
      recovery_target_action: "shutdown",
    });
    if (firstPass.database) {
      await firstPass.database.stop();
      throw new RecoveryError("PostgreSQL promoted the cluster instead of stopping at the last archived segment");
    }
    if (!firstPass.log.includes("shutdown at recovery target")) throw failure(firstPass.log);
  }
  request.progress?.("Replaying the rest of the archived WAL");
  const last = await run({});
  if (!last.database) throw failure(last.log);
  return { database: last.database, lastTransactionAt: lastTransactionTime(last.log) };
}

/**
 * PostgreSQL's user reads the archive (restore_command runs as that user). An archive copied back
 * by root (from another disk, from remote storage) holds files only root can read, so under root
 * they are handed to that user, as the archiver would have made them.
 */
async function giveArchiveTo(walDir: string, owner: { uid: number; gid: number }) {
  for (const name of ["", ...(await fs.readdir(walDir))]) {
    const file = path.join(walDir, name);
    const stat = await fs.lstat(file);
    if (stat.uid !== owner.uid && (stat.isFile() || stat.isDirectory())) await fs.chown(file, owner.uid, owner.gid);
  }
}

type RecoveryRun = { database: EmbeddedDatabase | null; log: string };

/** Starts PostgreSQL on the folder and answers when it accepts connections, or with its log when it exits. */
async function startRecovery(
  clusterDir: string,
  settings: Record<string, string>,
  walDir: string,
  freshPasswords: boolean,
): Promise<RecoveryRun> {
  let log = "";
  try {
    const database = await startEmbeddedPostgres(clusterDir, (chunk) => (log += chunk), {
      settings,
      // restore_command reads the archive as PostgreSQL's user; archiving also writes there.
      writableDirs: [walDir],
      initialise: false,
      freshPasswords,
    });
    return { database, log };
  } catch (error) {
    if (error instanceof Error) log += `\n${error.message}`;
    return { database: null, log };
  }
}

/** "redo done at 0/5000060": where replay ended (the start of the last record replayed). */
function redoEnd(log: string): bigint | null {
  const match = /redo done at ([0-9A-F]+\/[0-9A-F]+)/.exec(log);
  return match ? parseLsn(match[1]!) : null;
}

/** "last completed transaction was at log time 2026-11-23 10:15:00.123456+00" */
function lastTransactionTime(log: string): Date | null {
  const match = /last completed transaction was at log time (\d{4}-\d{2}-\d{2} [\d:.]+)([+-]\d{2})/.exec(log);
  return match ? new Date(`${match[1]!.replace(" ", "T")}${match[2]}:00`) : null;
}

/** The messages PostgreSQL logs when a WAL record or page cannot be read. */
const UNREADABLE_WAL =
  /(invalid record length|incorrect resource manager data checksum|invalid magic number|unexpected pageaddr|record with incorrect prev-link|invalid resource manager ID|invalid record offset|missing contrecord|contrecord is requested|record length \d+ at \S+ too long|invalid info bits|out-of-sequence timeline|unexpected timeline ID|has wrong size)[^\n]*/g;

/**
 * One line saying why recovery failed: the segment it could not read (from PostgreSQL's message,
 * or the break the archive's listing showed, or the segment after the last one replayed), or else
 * PostgreSQL's own FATAL message.
 */
function describeFailure(log: string, request: RecoveryRequest, segmentBytes: number): string {
  const replayedTo = redoEnd(log);
  const fatal = /FATAL:\s+([^\n]*)/.exec(log)?.[1]?.trim();
  const stoppedShort =
    fatal !== undefined && /recovery target was reached|WAL ends before|before consistent recovery point/.test(fatal);
  if (stoppedShort) {
    const startSegment = segmentOf(parseLsn(request.backup.manifest.startLsn), segmentBytes);
    const unreadable = unreadableSegment(log, request, segmentBytes, startSegment);
    // A segment the archive lacks or has cut short explains the stop better than what PostgreSQL
    // read in its place (pg_wal may hold an old recycled file of that name).
    const known = firstBreakAfter(request.assessment.chainBreaks, startSegment);
    if (known && (!unreadable || known.segmentNumber <= unreadable.segmentNumber)) {
      return `WAL segment ${known.segment} ${known.detail}; nothing was changed`;
    }
    if (unreadable)
      return `WAL segment ${unreadable.segment} is damaged (PostgreSQL: ${unreadable.message}); nothing was changed`;
    if (replayedTo !== null) {
      const next = segmentNameAt(
        (segmentOf(replayedTo, segmentBytes) + 1n) * BigInt(segmentBytes),
        request,
        segmentBytes,
      );
      return `WAL segment ${next} is missing or damaged: replay stopped before it (PostgreSQL: ${fatal}); nothing was changed`;
    }
  }
  return `Recovery failed (PostgreSQL: ${fatal ?? lastLines(log)}); nothing was changed`;
}

/** The last segment of the chain that PostgreSQL said it could not read, with its message. */
function unreadableSegment(
  log: string,
  request: RecoveryRequest,
  segmentBytes: number,
  startSegment: bigint,
): { segment: string; segmentNumber: bigint; message: string } | null {
  const lastSegment = request.assessment.chain.lastSegment;
  const messages = [...log.matchAll(UNREADABLE_WAL)].map((match) => match[0].trim());
  for (const message of messages.reverse()) {
    const named = /WAL segment ([0-9A-F]{24})/.exec(message)?.[1];
    const position = /(?:at|LSN) ([0-9A-F]+\/[0-9A-F]+)/.exec(message)?.[1];
    const segment = named ?? (position ? segmentNameAt(parseLsn(position), request, segmentBytes) : null);
    const segmentNumber = segment ? parseSegmentName(segment, segmentBytes)?.segment : undefined;
    if (
      segment &&
      segmentNumber !== undefined &&
      segmentNumber >= startSegment &&
      (lastSegment === null || segmentNumber <= lastSegment)
    ) {
      return { segment, segmentNumber, message };
    }
  }
  return null;
}

function segmentNameAt(lsn: bigint, request: RecoveryRequest, segmentBytes: number): string {
  const segment = segmentOf(lsn, segmentBytes);
  return segmentName(timelineOfSegment(segment, request.assessment.chain.history, segmentBytes), segment, segmentBytes);
}

function firstBreakAfter(breaks: ChainBreak[], startSegment: bigint): ChainBreak | null {
  return breaks.find((chainBreak) => chainBreak.segmentNumber >= startSegment) ?? null;
}

function lastLines(log: string): string {
  return log.trim().split("\n").slice(-3).join(" / ");
}
