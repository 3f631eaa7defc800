import path from "node:path";
import { describe, expect, it } from "vitest";
import { clusterCopyRule, parseBackupLabel } from "./base-backup";
import { dataDirFileRule } from "./data-dir";
import { restoreCommand, walArchiveSettings, WAL_COMMAND_SCRIPT } from "./wal-archive";

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
    // The socket's lock file is the running server's; the cluster's passwords go with it.
    expect(clusterCopyRule(".s.PGSQL.5432.lock", false)).toBe("skip");
    expect(clusterCopyRule("waqt-credentials.json", false)).toBe("copy");
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
    // An archive left in the old default place (DATA_DIR/backups) is never copied into a backup.
    expect(dataDirFileRule("/srv/data", "/srv/data/postgres", "/mnt/backup")("backups")).toBe("skip");
  });

  it("never copies a mail marked as carrying a secret (a reset link), wherever it lies", () => {
    const rule = dataDirFileRule("/srv/data", "/srv/data/postgres", "/srv/data-backups");
    expect(rule(path.join("outbox", "2026-11-25T10-00-00-000Z-0b5e.secret.eml"))).toBe("skip");
    expect(rule(path.join("outbox", ".2026-11-25T10-00-00-000Z-0b5e.secret.eml.tmp"))).toBe("skip");
    expect(rule(path.join("outbox", "2026-11-25T10-00-00-000Z-0c6f.eml"))).toBe("copy");
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
    const node = `'${process.execPath}'`;
    const script = `'${WAL_COMMAND_SCRIPT}'`;
    expect(restoreCommand("/srv/backups/wal")).toBe(`${node} ${script} restore '/srv/backups/wal' "%f" "%p"`);
    expect(restoreCommand("/srv/it's 100%/wal")).toBe(`${node} ${script} restore '/srv/it'\\''s 100%%/wal' "%f" "%p"`);
    expect(walArchiveSettings("/srv/backups/wal").archive_command).toBe(
      `${node} ${script} archive '/srv/backups/wal' "%p" "%f"`,
    );
  });
});
