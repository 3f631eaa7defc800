import type { Knex } from "knex";
import type { MessageLanguage } from "../orders/order-values.shared";
import type { OrderMessageKind, TextChannel } from "./order-confirmation.shared";

/**
 * A queued text (`order_messages`) as it is sent (server/flows/order-texts.ts): found under its
 * lock while it is still queued, then recorded sent, failed, or left queued for another try. Each
 * part runs in the caller's transaction.
 */

/** A text waiting to be sent, as its sending reads it. */
export type QueuedText = {
  id: string;
  orderId: string;
  channel: TextChannel;
  kind: OrderMessageKind;
  language: MessageLanguage;
  phone: string;
  attempts: number;
  shipmentEventId: string | null;
};

const QUEUED_TEXT_COLUMNS = `id, order_id AS "orderId", channel, kind, language, phone, attempts,
                             shipment_event_id AS "shipmentEventId"`;

/**
 * The text, locked for the rest of the transaction, when it is still queued; else null. With
 * `skipLocked`, null too when another server holds it (it is being sent there), rather than
 * waiting for it: so two servers never send one text twice.
 */
export async function lockQueuedText(
  trx: Knex,
  id: string,
  options: { skipLocked: boolean },
): Promise<QueuedText | null> {
  const { rows } = await trx.raw<{ rows: QueuedText[] }>(
    options.skipLocked
      ? `SELECT ${QUEUED_TEXT_COLUMNS} FROM order_messages WHERE id = ? AND status = 'queued' FOR UPDATE SKIP LOCKED`
      : `SELECT ${QUEUED_TEXT_COLUMNS} FROM order_messages WHERE id = ? AND status = 'queued' FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

/** A try that failed for now: counted, with its error, and the text left queued for the next. */
export async function recordTextRetry(
  trx: Knex,
  text: Pick<QueuedText, "id" | "attempts">,
  retry: { error: string; now: Date },
): Promise<void> {
  await trx("order_messages")
    .where({ id: text.id })
    .update({ attempts: text.attempts + 1, error: retry.error, updated_at: retry.now });
}

/** The text was sent (with the provider's id for its reports) or failed for good: one more try counted. */
export async function recordTextResult(
  trx: Knex,
  id: string,
  result: { status: "sent"; providerMessageId: string } | { status: "failed"; error: string },
  now: Date,
): Promise<void> {
  await trx("order_messages")
    .where({ id })
    .update(
      result.status === "sent"
        ? {
            status: "sent",
            provider_message_id: result.providerMessageId,
            sent_at: now,
            updated_at: now,
            attempts: trx.raw("attempts + 1"),
          }
        : {
            status: "failed",
            error: result.error.slice(0, 500),
            failed_at: now,
            updated_at: now,
            attempts: trx.raw("attempts + 1"),
          },
    );
}
