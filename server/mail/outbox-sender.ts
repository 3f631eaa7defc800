import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";
import { OutboxMessage } from "../modules/mail/outbox-message.model";
import type { MailTransport } from "./mail-transport";

export type OutboxSenderOptions = {
  db: Database;
  transport: MailTransport;
  logger: Logger;
  /** Attempts before a message is failed for good. */
  maxAttempts: number;
  /** The wait after the first failure, doubled after each one, at most an hour. */
  retrySeconds: number;
};

const MAX_BACKOFF_SECONDS = 3600;
const ERROR_MAX = 500;

/**
 * The "send-mail" job's work (docs/decisions/2026-11-23-outbox.md, -25-job-queue.md): one outbox
 * message, in a transaction of its own. The row is taken with `FOR UPDATE SKIP LOCKED`, sent
 * while it stays locked, and marked sent (or its failure recorded) before the lock is let go;
 * the queue runs each job on one app server, and the row's lock and state make a second job for
 * one message (a retry queued meanwhile) find nothing to do. A failure is tried again after a
 * wait that doubles: recording next_attempt_at makes the outbox's trigger add the job for that
 * time. An SMTP refusal of the message itself (5xx) or the last attempt marks it failed for good.
 * A message carrying a secret has its body purged once sent or failed.
 */
export function outboxMessageSender(options: OutboxSenderOptions): (outboxId: string) => Promise<void> {
  const { db, transport, logger } = options;
  return (outboxId) =>
    db.transaction(async (trx) => {
      const message = await OutboxMessage.query(trx)
        .findById(outboxId)
        .where("state", "queued")
        .where("nextAttemptAt", "<=", OutboxMessage.fn.now())
        .forUpdate()
        .skipLocked();
      // Sent or failed already, due later (its job waits for then), or in another job's hands.
      if (!message) return;
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
        return;
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
    });
}

/** Removes the .eml files older than MAIL_FILES_KEEP_DAYS (without SMTP_URL): a recurring task of each app server. */
export async function removeOldMailFiles(transport: MailTransport, logger: Logger): Promise<void> {
  const removed = await transport.removeOldFiles();
  if (removed > 0) logger.info({ removed }, "old mail files removed");
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
