/**
 * The embedded cluster's daily base backup as a job of the queue (docs/decisions/2026-11-25-job-queue.md):
 * two runners on one database (two starts of the store's job runner, each asking for a backup)
 * take one backup a day between them, and the crontab knows the task once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupLayout, readBaseBackups } from "../../server/backups/backup-archive";
import { loadConfig } from "../../server/settings/config";
import { migrateToLatest } from "../../server/jobs/migrate";
import { embeddedClusterDir, openDatabase } from "../../server/start-up/open-database";
import { startStoreJobs } from "../../server/jobs/job-tasks";
import { createLogger } from "../../server/logging/logger";
import { createMailTransport } from "../../server/mail/mail-transport";
import { createServices } from "../../server/start-up/services";

const temporaryDirs: string[] = [];
afterAll(() => {
  for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the base-backup job", () => {
  it("runs once a day across two runners on one database", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-backup-job-"));
    temporaryDirs.push(dataDir);
    const backupDir = path.join(dataDir, "backups");
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, BACKUP_DIR: backupDir, LOG_LEVEL: "silent" });
    const database = await openDatabase(config);
    try {
      await migrateToLatest(database.db);
      const logger = createLogger("silent");
      const services = createServices({ db: database.db, config, logger });
      const transport = createMailTransport(config.mail, { publicUrl: config.publicUrl, replyTo: config.store.email });
      const runners = (now: Date) =>
        Promise.all(
          [1, 2].map(() =>
            startStoreJobs({
              connectionString: database.url,
              db: database.db,
              services,
              logger,
              mail: { transport, maxAttempts: 3, retrySeconds: 1 },
              backups: {
                connectionString: database.url,
                clusterDir: embeddedClusterDir(dataDir),
                dataDir,
                backupDir,
                keepDays: 7,
                logger,
                now: () => now,
              },
              pollMs: 50,
            }),
          ),
        );
      const backups = async () => (await readBaseBackups(backupLayout(backupDir))).map((b) => b.manifest.name);
      const idle = async () =>
        (await database.db.raw("SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'base-backup'"))
          .rows[0].n === 0;
      const settle = async (started: Awaited<ReturnType<typeof runners>>) => {
        const deadline = Date.now() + 60_000;
        while (!(await idle())) {
          if (Date.now() > deadline) throw new Error("the base-backup jobs did not finish");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await Promise.all(started.map((runner) => runner.runDueJobs()));
        await Promise.all(started.map((runner) => runner.stop()));
      };

      // Both ask at start; one backup is taken.
      await settle(await runners(new Date()));
      expect(await backups()).toHaveLength(1);
      // Started again the same day: nothing more.
      await settle(await runners(new Date()));
      expect(await backups()).toHaveLength(1);
      // A day later: one more, not two.
      await settle(await runners(new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000)));
      expect(await backups()).toHaveLength(2);

      const crontab = await database.db.raw("SELECT identifier FROM graphile_worker._private_known_crontabs");
      expect(crontab.rows).toContainEqual({ identifier: "base-backup" });
      transport.close();
    } finally {
      await database.close();
    }
  }, 180_000);
});
