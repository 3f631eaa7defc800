/**
 * Names and positions of PostgreSQL's write-ahead log, and the chain of archived segments that a
 * restore replays. Pure: the archive's listing comes in, the answer goes out
 * (docs/decisions/2026-11-23-backups.md).
 *
 * A WAL position (LSN) is a 64-bit byte offset, written "16/B374D848". The log is cut into
 * segments of a fixed size (16 MB unless initdb was told otherwise); a segment's file is named by
 * its timeline and number: TTTTTTTT XXXXXXXX YYYYYYYY in hex, XXXXXXXX YYYYYYYY being the segment
 * number split at 4 GiB. A restore that ends before the newest WAL starts a new timeline; its
 * history file ("00000002.history") says where it left its parent.
 */

export const SEGMENT_NAME = /^([0-9A-F]{8})([0-9A-F]{8})([0-9A-F]{8})$/;
/** A segment's file in the archive: its name, with ".gz" when compressed (server/backups/wal-command.mjs). */
const ARCHIVED_SEGMENT_FILE = /^([0-9A-F]{24})(\.gz)?$/;
const HISTORY_NAME = /^([0-9A-F]{8})\.history$/;
const FOUR_GIB = 0x1_0000_0000n;

export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffff_ffffn).toString(16).toUpperCase()}`;
}

/** The number of the segment holding this position. */
export function segmentOf(lsn: bigint, segmentBytes: number): bigint {
  return lsn / BigInt(segmentBytes);
}

export function segmentName(timeline: number, segment: bigint, segmentBytes: number): string {
  const perId = FOUR_GIB / BigInt(segmentBytes);
  const hex = (value: bigint | number) => value.toString(16).toUpperCase().padStart(8, "0");
  return hex(timeline) + hex(segment / perId) + hex(segment % perId);
}

export function parseSegmentName(name: string, segmentBytes: number): { timeline: number; segment: bigint } | null {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return null;
  const perId = FOUR_GIB / BigInt(segmentBytes);
  return {
    timeline: Number.parseInt(match[1]!, 16),
    segment: BigInt(`0x${match[2]}`) * perId + BigInt(`0x${match[3]}`),
  };
}

/** The segment an archive file holds, and whether it is compressed; null for other files. */
export function parseArchivedSegmentFile(fileName: string): { segment: string; compressed: boolean } | null {
  const match = ARCHIVED_SEGMENT_FILE.exec(fileName);
  return match ? { segment: match[1]!, compressed: match[2] !== undefined } : null;
}

export function historyFileName(timeline: number): string {
  return `${timeline.toString(16).toUpperCase().padStart(8, "0")}.history`;
}

export function parseHistoryFileName(name: string): number | null {
  const match = HISTORY_NAME.exec(name);
  return match ? Number.parseInt(match[1]!, 16) : null;
}

/** One timeline of a history, valid from `begin` (inclusive) to `end` (exclusive; null: still open). */
export type TimelineSpan = { timeline: number; begin: bigint; end: bigint | null };

/**
 * The timelines that lead to `timeline`, oldest first, read from its history file as PostgreSQL
 * writes it: one line per parent, "parentTLI <tab> switchpoint <tab> reason".
 */
export function timelineHistory(timeline: number, historyFile: string | null): TimelineSpan[] {
  const spans: TimelineSpan[] = [];
  let begin = 0n;
  for (const line of (historyFile ?? "").split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (!fields[0] || fields[0].startsWith("#")) continue;
    const parent = Number.parseInt(fields[0], 10);
    const switchpoint = parseLsn(fields[1] ?? "");
    spans.push({ timeline: parent, begin, end: switchpoint });
    begin = switchpoint;
  }
  spans.push({ timeline, begin, end: null });
  return spans;
}

/**
 * The timeline whose file recovery reads for a segment: like PostgreSQL (XLogFileReadAnyTLI), the
 * newest timeline of the history that had begun by that segment. The segment holding a switch
 * point comes from the new timeline, which starts with a copy of its parent's segment.
 */
export function timelineOfSegment(segment: bigint, history: TimelineSpan[], segmentBytes: number): number {
  for (let index = history.length - 1; index >= 0; index--) {
    if (segmentOf(history[index]!.begin, segmentBytes) <= segment) return history[index]!.timeline;
  }
  return history[0]!.timeline;
}

/** The timeline a position belongs to in this history (PostgreSQL's tliOfPointInHistory), or null. */
export function timelineOfPosition(lsn: bigint, history: TimelineSpan[]): number | null {
  for (let index = history.length - 1; index >= 0; index--) {
    const span = history[index]!;
    if (lsn >= span.begin && (span.end === null || lsn < span.end)) return span.timeline;
  }
  return null;
}

/**
 * A segment in the archive: `name` is the segment's (without ".gz"), `bytes` its size unpacked (a
 * compressed file's gzip trailer says it), `file` the archive's file name when it differs.
 */
export type ArchivedSegment = { name: string; bytes: number; archivedAt: Date; file?: string };

export type WalChain = {
  /** The newest timeline in the archive: a restore follows it. */
  timeline: number;
  history: TimelineSpan[];
  /** The newest segment on that history, or null when the archive holds none. */
  last: ArchivedSegment | null;
  lastSegment: bigint | null;
};

/** The newest timeline's history and the last archived segment on it. */
export function walChain(
  segments: ArchivedSegment[],
  historyFiles: Map<number, string>,
  segmentBytes: number,
): WalChain {
  const timelines = [
    ...historyFiles.keys(),
    ...segments.map((segment) => parseSegmentName(segment.name, segmentBytes)?.timeline ?? 1),
  ];
  const timeline = Math.max(1, ...timelines);
  const history = timelineHistory(timeline, historyFiles.get(timeline) ?? null);
  let last: ArchivedSegment | null = null;
  let lastSegment: bigint | null = null;
  for (const segment of segments) {
    const parsed = parseSegmentName(segment.name, segmentBytes);
    if (!parsed || timelineOfSegment(parsed.segment, history, segmentBytes) !== parsed.timeline) continue;
    if (lastSegment === null || parsed.segment > lastSegment) {
      last = segment;
      lastSegment = parsed.segment;
    }
  }
  return { timeline, history, last, lastSegment };
}

export type ChainBreak = { segment: string; segmentNumber: bigint; problem: "missing" | "damaged"; detail: string };

/**
 * Every segment from `fromSegment` to the chain's last one that is missing or damaged (wrong size,
 * or a first page that `headerProblem` refuses), in order; empty when the chain is whole.
 */
export function chainBreaks(
  chain: WalChain,
  fromSegment: bigint,
  segmentBytes: number,
  archived: Map<string, ArchivedSegment>,
  headerProblem: (name: string, segment: bigint) => string | null = () => null,
): ChainBreak[] {
  const breaks: ChainBreak[] = [];
  if (chain.lastSegment === null) return breaks;
  for (let segment = fromSegment; segment <= chain.lastSegment; segment++) {
    const name = segmentName(timelineOfSegment(segment, chain.history, segmentBytes), segment, segmentBytes);
    const file = archived.get(name);
    if (!file) {
      breaks.push({ segment: name, segmentNumber: segment, problem: "missing", detail: "is missing from the archive" });
    } else if (file.bytes !== segmentBytes) {
      breaks.push({
        segment: name,
        segmentNumber: segment,
        problem: "damaged",
        detail: `is damaged: ${file.bytes} bytes instead of ${segmentBytes}`,
      });
    } else {
      const problem = headerProblem(name, segment);
      if (problem)
        breaks.push({ segment: name, segmentNumber: segment, problem: "damaged", detail: `is damaged: ${problem}` });
    }
  }
  return breaks;
}

/**
 * Checks the long header that opens every segment file (XLogLongPageHeaderData): the position of
 * its first page and the cluster it belongs to. A file from another cluster, one cut short or
 * overwritten at its start fails here, before recovery is even tried.
 */
export function segmentHeaderProblem(
  header: Buffer,
  segment: bigint,
  segmentBytes: number,
  systemIdentifier: string,
): string | null {
  if (header.length < 40) return "shorter than a page header";
  const pageAddress = header.readBigUInt64LE(8);
  if (pageAddress !== segment * BigInt(segmentBytes)) return `its first page is for position ${formatLsn(pageAddress)}`;
  if (header.readBigUInt64LE(24).toString() !== systemIdentifier) return "it belongs to another database cluster";
  if (header.readUInt32LE(32) !== segmentBytes) return "its header names another segment size";
  return null;
}
