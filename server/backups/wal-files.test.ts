import { describe, expect, it } from "vitest";
import { assessListing, type BaseBackup, type BaseBackupManifest } from "./backup-archive";
import {
  chainBreaks,
  formatLsn,
  parseLsn,
  parseSegmentName,
  segmentHeaderProblem,
  segmentName,
  timelineHistory,
  timelineOfPosition,
  timelineOfSegment,
  walChain,
  type ArchivedSegment,
} from "./wal-files";

const MB16 = 16 * 1024 * 1024;
const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, second));
const segment = (name: string, second = 0, bytes = MB16): ArchivedSegment => ({ name, bytes, archivedAt: at(second) });

function backup(
  name: string,
  timeline: number,
  startLsn: string,
  stopWalFile: string,
  finishedSecond: number,
): BaseBackup {
  const manifest = {
    name,
    timeline,
    startLsn,
    stopLsn: startLsn,
    startWalFile: segmentName(timeline, parseLsn(startLsn) / BigInt(MB16), MB16),
    stopWalFile,
    startedAt: at(finishedSecond - 1).toISOString(),
    finishedAt: at(finishedSecond).toISOString(),
    walSegmentBytes: MB16,
    systemIdentifier: "7311111111111111111",
    postgresVersion: "17.10",
    databaseBytes: 1,
    filesBytes: 0,
  } satisfies BaseBackupManifest;
  return { dir: `/backups/base/${name}`, manifest };
}

describe("WAL names and positions", () => {
  it("reads and writes positions and segment file names like PostgreSQL", () => {
    expect(parseLsn("16/B374D848")).toBe(0x16_b374_d848n);
    expect(formatLsn(0x16_b374_d848n)).toBe("16/B374D848");
    expect(segmentName(1, 0x16b3n, MB16)).toBe("0000000100000016000000B3");
    expect(parseSegmentName("0000000100000016000000B3", MB16)).toEqual({ timeline: 1, segment: 0x16b3n });
    expect(segmentName(2, 0x100n, 1024 * 1024)).toBe("000000020000000000000100");
    expect(parseSegmentName("00000001000000000000000A.partial", MB16)).toBeNull();
    expect(() => parseLsn("nonsense")).toThrow();
  });

  it("follows a timeline's history: the segment of a switch point comes from the new timeline", () => {
    // Timeline 2 left timeline 1 inside segment 5; timeline 3 left timeline 2 inside segment 9.
    const history = timelineHistory(
      3,
      "1\t0/5000A28\tno recovery target specified\n\n2\t0/9000100\tbefore 2026-11-23\n",
    );
    expect(history).toEqual([
      { timeline: 1, begin: 0n, end: 0x5000a28n },
      { timeline: 2, begin: 0x5000a28n, end: 0x9000100n },
      { timeline: 3, begin: 0x9000100n, end: null },
    ]);
    expect(timelineOfSegment(4n, history, MB16)).toBe(1);
    expect(timelineOfSegment(5n, history, MB16)).toBe(2);
    expect(timelineOfSegment(8n, history, MB16)).toBe(2);
    expect(timelineOfSegment(9n, history, MB16)).toBe(3);
    expect(timelineOfPosition(0x2000028n, history)).toBe(1);
    expect(timelineOfPosition(0x6000028n, history)).toBe(2);
    expect(timelineOfPosition(0xa000028n, history)).toBe(3);
  });

  it("a restore to a time before the newest one leaves the abandoned branch out of the chain", () => {
    // Timeline 2 ran from segment 5 to 9; a restore then went back to a point in segment 4 of
    // timeline 1 and became timeline 3, whose history names timeline 2 with an earlier end.
    const histories = new Map([
      [2, "1\t0/5000A28\tno recovery target specified\n"],
      [3, "1\t0/5000A28\tno recovery target specified\n2\t0/4000F00\tbefore 2026-11-23 10:00:00+00\n"],
    ]);
    const segments = [
      "000000010000000000000003",
      "000000010000000000000004",
      "000000020000000000000005",
      "000000020000000000000006",
      "000000030000000000000004",
      "000000030000000000000005",
    ].map((name) => segment(name));
    const chain = walChain(segments, histories, MB16);
    expect(chain.timeline).toBe(3);
    expect(chain.lastSegment).toBe(5n);
    expect(chain.last?.name).toBe("000000030000000000000005");
    // A backup taken on timeline 2 after the branch point cannot lead to timeline 3.
    expect(timelineOfPosition(0x6000028n, chain.history)).not.toBe(2);
    expect(timelineOfPosition(0x3000028n, chain.history)).toBe(1);
  });

  it("names the first missing or damaged segment of the chain", () => {
    const segments = [
      segment("000000010000000000000002"),
      segment("000000010000000000000004"),
      segment("000000010000000000000005", 0, 100),
    ];
    const chain = walChain(segments, new Map(), MB16);
    const archived = new Map(segments.map((file) => [file.name, file]));
    expect(chainBreaks(chain, 2n, MB16, archived)).toEqual([
      {
        segment: "000000010000000000000003",
        segmentNumber: 3n,
        problem: "missing",
        detail: "is missing from the archive",
      },
      {
        segment: "000000010000000000000005",
        segmentNumber: 5n,
        problem: "damaged",
        detail: `is damaged: 100 bytes instead of ${MB16}`,
      },
    ]);
    expect(
      chainBreaks(chain, 4n, MB16, archived, (name) => (name.endsWith("4") ? "bad header" : null))[0],
    ).toMatchObject({
      segment: "000000010000000000000004",
      detail: "is damaged: bad header",
    });
  });

  it("checks the long page header that opens a segment", () => {
    const header = Buffer.alloc(40);
    header.writeBigUInt64LE(3n * BigInt(MB16), 8);
    header.writeBigUInt64LE(7311111111111111111n, 24);
    header.writeUInt32LE(MB16, 32);
    expect(segmentHeaderProblem(header, 3n, MB16, "7311111111111111111")).toBeNull();
    expect(segmentHeaderProblem(header, 4n, MB16, "7311111111111111111")).toBe(
      "its first page is for position 0/3000000",
    );
    expect(segmentHeaderProblem(header, 3n, MB16, "7300000000000000000")).toBe(
      "it belongs to another database cluster",
    );
    expect(segmentHeaderProblem(Buffer.alloc(10), 3n, MB16, "1")).toBe("shorter than a page header");
  });
});

describe("what the archive can restore", () => {
  const segments = [
    "000000010000000000000002",
    "000000010000000000000003",
    "000000010000000000000004",
    "000000010000000000000005",
  ].map((name, index) => segment(name, 10 * (index + 1)));

  it("spans from the oldest backup to the last archived segment", () => {
    const backups = [
      backup("base-a", 1, "0/2000028", "000000010000000000000002", 5),
      backup("base-b", 1, "0/4000028", "000000010000000000000004", 25),
    ];
    const assessment = assessListing(backups, { segments, histories: new Map() }, MB16);
    expect(assessment.restorable.map((b) => b.manifest.name)).toEqual(["base-a", "base-b"]);
    expect(assessment.span).toEqual({ from: at(5), to: at(40) });
    expect(assessment.chainBreaks).toEqual([]);
  });

  it("only backups after a missing segment restore to the latest point; the span still starts at the oldest", () => {
    const backups = [
      backup("base-a", 1, "0/2000028", "000000010000000000000002", 5),
      backup("base-b", 1, "0/4000028", "000000010000000000000004", 25),
    ];
    const withGap = segments.filter((file) => file.name !== "000000010000000000000003");
    const assessment = assessListing(backups, { segments: withGap, histories: new Map() }, MB16);
    expect(assessment.restorable.map((b) => b.manifest.name)).toEqual(["base-b"]);
    expect(assessment.chainBreaks.map((b) => b.segment)).toEqual(["000000010000000000000003"]);
    expect(assessment.span?.from).toEqual(at(5));
  });

  it("a backup whose last segment never reached the archive cannot be restored", () => {
    const backups = [backup("base-c", 1, "0/6000028", "000000010000000000000006", 50)];
    const assessment = assessListing(backups, { segments, histories: new Map() }, MB16);
    expect(assessment.onHistory).toEqual([]);
    expect(assessment.span).toBeNull();
  });
});
