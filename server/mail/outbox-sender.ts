import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { OutboxMessage } from "../modules/mail/outbox-message.model";
import { isDatabaseUnavailable } from "../modules/shared/errors.shared";
import type { MailTransport } from "./mail-transport";

export type OutboxSenderOptions = {
  db: Database;
  transport: MailTransport;
  logger: Logger;
  /** Attempts before a message is failed for good. */
  maxAttempts: number;
  /** The wait after the first failure, doubled after each one, at most an hour. */
  retrySeconds: number;
  /** How often the outbox is looked at when it was empty. */
  pollMs?: number;
  /** Turns due stock alerts into mails (those whose restock did not do it itself). */
  sweep?: () => Promise<unknown>;
  /** How often old .eml files are removed (MAIL_FILES_KEEP_DAYS): at start, then every hour by default. */
  fileSweepMs?: number;
};

export type OutboxSender = {
  /** Sends what is due now, until nothing is (tests call it instead of waiting for the loop). */
  drain(): Promise<number>;
  /** Finishes the message in hand, then stops. */
  stop(): Promise<void>;
};

const MAX_BACKOFF_SECONDS = 3600;
const STOP_GRACE_MS = 5_000;
const ERROR_MAX = 500;

/**
 * The outbox sender of this app server (docs/decisions/2026-11-23-outbox.md). Each message is
 * taken in a transaction of its own with `FOR UPDATE SKIP LOCKED`, sent while its row stays
 * locked, and marked sent (or its failure recorded) before the lock is let go: another app
 * server skips the row meanwhile and finds it sent afterwards, so no two servers send one
 * message. A failure is tried again after a wait that doubles; an SMTP refusal of the message
 * itself (5xx) or the last attempt marks it failed for good. A message carrying a secret has
 * its body purged once sent or failed. Nothing lives only in memory: a restart resumes from the
 * table. Without SMTP_URL the loop also removes the .eml files older than MAIL_FILES_KEEP_DAYS.
 */
export function startOutboxSender(options: OutboxSenderOptions): OutboxSender {
  const { db, transport, logger } = options;
  const pollMs = options.pollMs ?? 1_000;
  const fileSweepMs = options.fileSweepMs ?? 60 * 60 * 1000;
  let lastFileSweep = -Infinity;
  let stopped = false;
  let wake: (() => void) | null = null;
  let running: Promise<number> | null = null;

  async function sendOne(): Promise<boolean> {
    return db.transaction(async (trx) => {
      const message = await OutboxMessage.query(trx)
        .where("state", "queued")
        .where("nextAttemptAt", "<=", OutboxMessage.fn.now())
        .orderBy([
          { column: "nextAttemptAt", order: "asc" },
          { column: "id", order: "asc" },
        ])
        .first()
        .forUpdate()
        .skipLocked();
      if (!message) return false;
      const purge = message.secret ? { textBody: null, htmlBody: null } : {};
      try {
        await transport.send({
          id: message.id,
          to: message.recipient,
          subject: message.subject,
          text: message.textBody ?? "",
          html: message.htmlBody ?? "",
          headers: message.headers ?? {},
          secret: message.secret,
        });
      } catch (error) {
        const attempts = message.attempts + 1;
        const reason = describeFailure(error);
        const permanent = isPermanentRefusal(error);
        if (permanent || attempts >= options.maxAttempts) {
          logger.error({ outboxId: message.id, kind: message.kind, attempts, reason }, "mail failed for good");
          await OutboxMessage.query(trx)
            .findById(message.id)
            .patch({ state: "failed", attempts, lastError: reason, ...purge });
        } else {
          const wait = Math.min(options.retrySeconds * 2 ** (attempts - 1), MAX_BACKOFF_SECONDS);
          logger.warn(
            { outboxId: message.id, kind: message.kind, attempts, reason, retryInSeconds: wait },
            "mail not sent yet",
          );
          await OutboxMessage.query(trx)
            .findById(message.id)
            .patch({
              attempts,
              lastError: reason,
              nextAttemptAt: OutboxMessage.raw("now() + make_interval(secs => ?)", [wait]) as unknown as Date,
            });
        }
        return true;
      }
      await OutboxMessage.query(trx)
        .findById(message.id)
        .patch({
          state: "sent",
          attempts: message.attempts + 1,
          sentAt: OutboxMessage.fn.now() as unknown as Date,
          lastError: null,
          ...purge,
        });
      logger.info({ outboxId: message.id, kind: message.kind }, "mail sent");
      return true;
    });
  }

  async function drainOnce(): Promise<number> {
    await options.sweep?.();
    let sent = 0;
    while (!stopped && (await sendOne())) sent += 1;
    return sent;
  }

  /** One pass at a time, whoever asks (the loop or a test). */
  function drain(): Promise<number> {
    running ??= drainOnce().finally(() => {
      running = null;
    });
    return running;
  }

  async function removeOldFiles() {
    if (performance.now() - lastFileSweep < fileSweepMs) return;
    lastFileSweep = performance.now();
    try {
      const removed = await transport.removeOldFiles();
      if (removed > 0) logger.info({ removed }, "old mail files removed");
    } catch (error) {
      logger.error({ err: error }, "old mail files could not be removed");
    }
  }

  const loop = (async () => {
    while (!stopped) {
      await removeOldFiles();
      try {
        await drain();
      } catch (error) {
        // The database or the mail server is away: the rows wait, and the next pass tries again.
        logger[isDatabaseUnavailable(error) ? "warn" : "error"]({ err: error }, "outbox pass failed");
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();

  return {
    drain,
    async stop() {
      stopped = true;
      wake?.();
      // The message in hand gets a few seconds (a hung mail server would hold the stop for the
      // SMTP timeouts); one cut short is rolled back and sent again by the next start.
      const finished = Promise.all([loop, running?.catch(() => 0)]);
      await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      transport.close();
    },
  };
}

/** An SMTP server's 5xx answer refuses the message itself: asking again would not help. */
function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Never a password: an SMTP URL's credentials cannot appear, but a server's answer might echo one.
  return message.replace(/\/\/[^@\s/]+@/g, "//***@").slice(0, ERROR_MAX);
}
