import path from "node:path";
import { describe, expect, it } from "vitest";
import { clusterCopyRule, parseBackupLabel } from "./base-backup";
import { dataDirFileRule } from "./data-dir";
import { restoreCommand } from "./recovery";

describe("what a base backup copies", () => {
  it("leaves out what the manual says to leave out of the cluster, keeping the folders", () => {
    expect(clusterCopyRule("postmaster.pid", false)).toBe("skip");
    expect(clusterCopyRule("postmaster.opts", false)).toBe("skip");
    expect(clusterCopyRule("pg_wal", true)).toBe("empty");
    expect(clusterCopyRule("pg_replslot", true)).toBe("empty");
    expect(clusterCopyRule("pg_stat_tmp", true)).toBe("empty");
    expect(clusterCopyRule(path.join("base", "pgsql_tmp"), true)).toBe("skip");
    expect(clusterCopyRule(path.join("global", "pg_internal.init"), false)).toBe("skip");
    expect(clusterCopyRule(path.join("base", "5", "1259"), false)).toBe("copy");
    expect(clusterCopyRule("global", true)).toBe("copy");
    expect(clusterCopyRule("PG_VERSION", false)).toBe("copy");
    expect(clusterCopyRule("postgresql.auto.conf", false)).toBe("copy");
  });

  it("copies the rest of DATA_DIR but not the cluster, the backups or what restores left", () => {
    const rule = dataDirFileRule("/srv/data", "/srv/data/postgres", "/srv/data/backups");
    expect(rule("postgres")).toBe("skip");
    expect(rule("backups")).toBe("skip");
    expect(rule("before-restore-20261123T101500Z")).toBe("skip");
    expect(rule(".restore-1a2b3c4d")).toBe("skip");
    expect(rule("uploads")).toBe("copy");
    expect(rule(path.join("uploads", "a.jpg"))).toBe("copy");
    expect(rule("session-secret")).toBe("copy");
    expect(dataDirFileRule("/srv/data", "/srv/data/postgres", "/mnt/backup")("backups")).toBe("copy");
  });

  it("reads where the backup starts from pg_backup_stop's label", () => {
    const label = [
      "START WAL LOCATION: 0/2000028 (file 000000010000000000000002)",
      "CHECKPOINT LOCATION: 0/2000080",
      "BACKUP METHOD: streamed",
      "BACKUP FROM: primary",
      "START TIME: 2026-11-23 12:14:56 UTC",
      "LABEL: base-20261123T121456Z",
      "START TIMELINE: 1",
      "",
    ].join("\n");
    expect(parseBackupLabel(label)).toEqual({ startWalFile: "000000010000000000000002", timeline: 1 });
    expect(() => parseBackupLabel("nothing")).toThrow(/cannot read/);
  });

  it("quotes the archive folder for the shell and escapes % for PostgreSQL", () => {
    expect(restoreCommand("/srv/backups/wal")).toBe(`cp '/srv/backups/wal'/"%f" "%p"`);
    expect(restoreCommand("/srv/it's 100%/wal")).toBe(`cp '/srv/it'\\''s 100%%/wal'/"%f" "%p"`);
  });
});
