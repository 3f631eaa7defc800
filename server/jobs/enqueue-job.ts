import type { Knex } from "knex";

/**
 * The store's tasks and what each job of them carries (docs/decisions/2026-11-25-job-queue.md).
 * A task is a name here and a handler in server/jobs/job-tasks.ts; the type keeps the two lists
 * and every caller in step.
 */
export interface JobPayloads {
  /** One outbox message to deliver (written by the outbox's triggers, migration 20261125000026). */
  "send-mail": { outboxId: string };
  /** Turn the stock alerts that a restock made due into mails (written by the products trigger). */
  "stock-alerts-due": Record<string, never>;
  /** The embedded cluster's daily base backup, when one is due (the crontab, and at start). */
  "base-backup": Record<string, never>;
  /** One text about an order to send by WhatsApp, SMS or file (written by order_messages' trigger, migration 20261125000029). */
  "send-text": { messageId: string };
  /** The confirmations' deadlines: reminders due, and orders nobody confirmed in time cancelled (the crontab). */
  "confirmation-deadlines": Record<string, never>;
  /** Bank-transfer orders left unpaid past the settings' hours cancelled (the crontab). */
  "unpaid-transfers": Record<string, never>;
  /**
   * Booked parcels asked after at their couriers (server/flows/courier-sync.ts); each run adds
   * the next, COURIER_SYNC_MINUTES later (server/jobs/job-tasks.ts).
   */
  "courier-sync": Record<string, never>;
  /** The reports' kept daily figures of closed and marked days (server/modules/reports/report-rollups.ts; the crontab, and at start). */
  "report-rollups": Record<string, never>;
}

export type JobName = keyof JobPayloads;

export type EnqueueOptions = {
  /** Not before this instant (default: at once). */
  runAt?: Date;
  /**
   * At most one waiting job with this key: enqueueing again replaces the waiting one (its payload
   * and time) instead of adding a second. A job already running keeps going, and the new one runs
   * after it.
   */
  jobKey?: string;
  /**
   * With jobKey, what a waiting job with the key keeps: "replace" (the default) takes the new
   * payload and time, "preserve_run_at" keeps its time.
   */
  jobKeyMode?: "replace" | "preserve_run_at";
  /** Attempts before the queue gives the job up (default 25); a failed attempt waits exp(attempts) seconds. */
  maxAttempts?: number;
};

/**
 * Adds a job through the caller's connection or transaction: a job for a change that rolls back
 * never exists, and one for a change that commits is certain. The app servers' runners are told
 * at the commit (NOTIFY) and one of them runs it.
 */
export async function enqueueJob<Name extends JobName>(
  db: Knex,
  taskName: Name,
  payload: JobPayloads[Name],
  options: EnqueueOptions = {},
): Promise<void> {
  await db.raw(
    "SELECT FROM graphile_worker.add_job(?, CAST(? AS json), run_at => ?, max_attempts => ?, job_key => ?, job_key_mode => ?)",
    [
      taskName,
      JSON.stringify(payload),
      options.runAt ?? null,
      options.maxAttempts ?? null,
      options.jobKey ?? null,
      options.jobKeyMode ?? "replace",
    ],
  );
}
