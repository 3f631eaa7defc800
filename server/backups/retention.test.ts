import { describe, expect, it } from "vitest";
import type { BaseBackup } from "./backup-archive";
import { planRetention } from "./retention";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date(Date.UTC(2026, 10, 23, 12));
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();

function backup(name: string, finishedAt: string, startWalFile: string): BaseBackup {
  return {
    dir: `/backups/base/${name}`,
    manifest: {
      name,
      finishedAt,
      startWalFile,
      startedAt: finishedAt,
      timeline: 1,
      startLsn: "0/0",
      stopLsn: "0/0",
      stopWalFile: startWalFile,
      walSegmentBytes: 16 * 1024 * 1024,
      systemIdentifier: "1",
      postgresVersion: "17.10",
      databaseBytes: 1,
      filesBytes: 0,
    },
  };
}

const wal = [
  "000000010000000000000002",
  "000000010000000000000002.00000028.backup",
  "000000010000000000000003",
  "000000010000000000000004",
  "000000010000000000000005.partial",
  "00000002.history",
  "000000020000000000000005",
  "000000020000000000000006",
  "000000020000000000000006.00000060.backup",
  "000000020000000000000007",
];

describe("retention", () => {
  it("keeps backups younger than the limit and the WAL from the oldest kept one on", () => {
    const plan = planRetention(
      [
        backup("old", daysAgo(9), "000000010000000000000002"),
        backup("mid", daysAgo(3), "000000010000000000000004"),
        backup("new", daysAgo(1), "000000020000000000000006"),
      ],
      wal,
      7,
      now,
    );
    expect(plan.keptBackups).toEqual(["mid", "new"]);
    expect(plan.deletedBackups).toEqual(["old"]);
    expect(plan.deletedWal).toEqual([
      "000000010000000000000002",
      "000000010000000000000002.00000028.backup",
      "000000010000000000000003",
    ]);
  });

  it("always keeps the newest backup and the chain after it, however old", () => {
    const plan = planRetention(
      [
        backup("older", daysAgo(30), "000000010000000000000002"),
        backup("newest", daysAgo(20), "000000020000000000000006"),
      ],
      wal,
      7,
      now,
    );
    expect(plan.keptBackups).toEqual(["newest"]);
    // Segment 6 on every timeline and everything after stays; so do history files.
    expect(plan.deletedWal).not.toContain("000000020000000000000006");
    expect(plan.deletedWal).not.toContain("00000002.history");
    expect(plan.deletedWal).toContain("000000010000000000000005.partial");
    expect(plan.deletedWal).toContain("000000020000000000000005");
  });

  it("deletes nothing without a backup", () => {
    expect(planRetention([], wal, 7, now)).toEqual({ keptBackups: [], deletedBackups: [], deletedWal: [] });
  });
});
