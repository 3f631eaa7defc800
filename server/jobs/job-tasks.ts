import { BASE_BACKUP_CHECK_SCHEDULE, takeBaseBackupIfDue, type BaseBackupOptions } from "../backups/backup-schedule";
import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";
import type { MailTransport } from "../mail/mail-transport";
import { outboxMessageSender, removeOldMailFiles } from "../mail/outbox-sender";
import type { Services } from "../start-up/services";
import { enqueueJob } from "./enqueue-job";
import {
  startJobRunner,
  type JobHandlers,
  type JobRunner,
  type LocalRecurringTask,
  type ScheduledJob,
} from "./job-runner";

/**
 * The store's background work, all of it (docs/decisions/2026-11-25-job-queue.md): every task
 * with its handler, the crontab, and each app server's own recurring work. A new task is a name
 * in server/jobs/enqueue-job.ts's JobPayloads and a handler here.
 */
export type StoreJobsOptions = {
  /** The store's database, as the store's role. */
  connectionString: string;
  db: Database;
  services: Services;
  logger: Logger;
  mail: {
    transport: MailTransport;
    maxAttempts: number;
    retrySeconds: number;
    /** How often this server removes its old .eml and text files (default: every hour, and at start). */
    fileSweepMs?: number;
  };
  /** The embedded cluster's base backups; null with DATABASE_URL, whose operator owns backups. */
  backups: BaseBackupOptions | null;
  /** Tests look for jobs due later more often than the store's two seconds. */
  pollMs?: number;
};

const MAIL_FILE_SWEEP_MS = 60 * 60 * 1000;
/** At most one base-backup job waits, however many servers and slots asked for one. */
const BASE_BACKUP_JOB_KEY = "base-backup";
/** The one chain of courier syncs (each run adds the next under this key). */
const COURIER_SYNC_JOB_KEY = "courier-sync";
/** At most one report roll-up waits, however many servers and slots asked for one. */
const REPORT_ROLLUPS_JOB_KEY = "report-rollups";

export function storeJobHandlers(options: Omit<StoreJobsOptions, "connectionString" | "pollMs">): JobHandlers {
  const { logger, backups } = options;
  const sendMail = outboxMessageSender({ db: options.db, logger, ...options.mail });
  return {
    "send-mail": ({ outboxId }) => sendMail(outboxId),
    "stock-alerts-due": async () => {
      await options.services.stockAlerts.queueDue();
    },
    // A text not sent now is tried again by the queue (with its backoff); its last try gives it
    // up, and SMS takes over from WhatsApp (server/flows/order-texts.ts).
    "send-text": async ({ messageId }, { attempt, maxAttempts }) => {
      const delivery = await options.services.orderTexts.send(messageId);
      if (delivery.done) return;
      if (attempt < maxAttempts) throw new Error(delivery.error);
      const fallbackId = await options.services.orderTexts.giveUp(messageId, delivery.error);
      if (fallbackId) await options.services.orderTexts.send(fallbackId);
    },
    "confirmation-deadlines": async () => {
      const { reminded, cancelled } = await options.services.orderConfirmation.runDeadlines();
      if (reminded + cancelled > 0) logger.info({ reminded, cancelled }, "confirmation deadlines");
    },
    "unpaid-transfers": async () => {
      const { cancelled } = await options.services.advancePayment.cancelUnpaid();
      if (cancelled > 0) logger.info({ cancelled }, "unpaid bank transfers cancelled");
    },
    // COURIER_SYNC_MINUTES may be a fraction, which a crontab's minutes cannot say: each run adds
    // the next one an interval after it started, under one job key so one chain runs whatever the
    // number of app servers. The next run is added even when this one fails, so the chain holds.
    "courier-sync": async () => {
      const started = Date.now();
      try {
        const report = await options.services.courierSync.syncAll();
        const { shipped, delivered, returned, attempts } = report;
        if (shipped + delivered + returned + attempts > 0) {
          logger.info({ shipped, delivered, returned, attempts }, "courier sync");
        }
      } finally {
        await enqueueJob(
          options.db,
          "courier-sync",
          {},
          { jobKey: COURIER_SYNC_JOB_KEY, runAt: new Date(started + options.services.courierSync.intervalMs) },
        );
      }
    },
    "report-rollups": async () => {
      const { days } = await options.services.reports.rollUpDays();
      if (days > 0) logger.info({ days }, "report days rolled up");
    },
    "base-backup": async (_payload, { signal }) => {
      if (backups) await takeBaseBackupIfDue(backups, signal);
      else logger.warn("base-backup job ignored: the store uses DATABASE_URL, whose operator owns backups");
    },
  };
}

/**
 * Starts this app server's job runner with the store's tasks, and asks for a base backup at start
 * (taken only when one is due).
 */
export async function startStoreJobs(options: StoreJobsOptions): Promise<JobRunner> {
  const { mail, logger } = options;
  const schedule: ScheduledJob[] = [
    ...(options.backups
      ? [{ task: "base-backup" as const, schedule: BASE_BACKUP_CHECK_SCHEDULE, jobKey: BASE_BACKUP_JOB_KEY }]
      : []),
    // Reminders and cancels of unanswered orders are due by the hour: a minute's slot is soon enough.
    { task: "confirmation-deadlines", schedule: "* * * * *", jobKey: "confirmation-deadlines", catchUpMs: 60_000 },
    // Unpaid transfers are due by the hour too (docs/product.md, "Paying in advance").
    { task: "unpaid-transfers", schedule: "* * * * *", jobKey: "unpaid-transfers", catchUpMs: 60_000 },
    // A marked day is read live until rolled up again: every ten minutes keeps reports quick.
    { task: "report-rollups", schedule: "*/10 * * * *", jobKey: REPORT_ROLLUPS_JOB_KEY, catchUpMs: 600_000 },
  ];
  const local: LocalRecurringTask[] = [
    {
      name: "mail-files-sweep",
      everyMs: mail.fileSweepMs ?? MAIL_FILE_SWEEP_MS,
      run: () => removeOldMailFiles(mail.transport, logger),
    },
    // The texts written as files without WhatsApp or SMS, on the mail files' schedule and keeping.
    {
      name: "text-files-sweep",
      everyMs: mail.fileSweepMs ?? MAIL_FILE_SWEEP_MS,
      run: async () => {
        const removed = await options.services.textFiles.removeOldFiles();
        if (removed > 0) logger.info({ removed }, "old text files removed");
      },
    },
  ];
  const runner = await startJobRunner({
    connectionString: options.connectionString,
    handlers: storeJobHandlers(options),
    schedule,
    local,
    logger,
    pollMs: options.pollMs,
    // The embedded cluster belongs to this one process: a job locked in it was left by a run that died.
    soleServer: options.backups !== null,
  });
  if (options.backups) {
    await enqueueJob(options.db, "base-backup", {}, { jobKey: BASE_BACKUP_JOB_KEY });
  }
  // The first run after the migration rolls up the history; later ones the day that closed.
  await enqueueJob(options.db, "report-rollups", {}, { jobKey: REPORT_ROLLUPS_JOB_KEY });
  // Starts the chain of courier syncs, or leaves a waiting one at its time (another server, a
  // restart). A store without courier settings has none.
  if (options.services.courierSync.on) {
    await enqueueJob(options.db, "courier-sync", {}, { jobKey: COURIER_SYNC_JOB_KEY, jobKeyMode: "preserve_run_at" });
  }
  return runner;
}
