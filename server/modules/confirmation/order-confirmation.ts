import crypto from "node:crypto";
import type { Knex } from "knex";
import type { StatementPart } from "../shared/statement";
import { NotFoundError } from "../shared/errors.shared";
import { Order } from "../orders/order.model";
import type { OrderMessageKind, TextChannel } from "./order-confirmation.shared";
import { CONFIRMATION_REQUESTS_PER_NUMBER } from "./order-confirmation.shared";
import type { ConfirmationChannel, Confirmer, MessageLanguage } from "../orders/order-values.shared";

/**
 * An order's confirmation by its customer (docs/product.md, "Confirming an order"): its token,
 * the answer recorded, and the texts written for sending. Each part runs in the caller's
 * transaction; the flows put them together (server/flows/order-confirmation.ts, checkout.ts).
 */

/**
 * The order's confirmation token: an HMAC of its id under a key derived from the store's
 * secret, so that it is unguessable, tied to one order, and never stored (the order keeps its
 * SHA-256 to find it, as reset tokens are kept). A reminder or a message sent again carries the
 * same link without anything secret in the database; a new SESSION_SECRET ends the open links.
 */
export function confirmationToken(secret: string, orderId: string): string {
  const key = crypto.createHmac("sha256", secret).update("order-confirmation-links").digest();
  return crypto.createHmac("sha256", key).update(orderId).digest("base64url");
}

export function confirmationTokenHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A token as it arrives in a URL or a button's payload: the 43 characters of base64url the HMAC makes. */
export function isConfirmationToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The order a confirmation token belongs to; 404 when it is no order's. */
export async function orderIdByToken(db: Knex, token: string): Promise<string> {
  if (!isConfirmationToken(token)) throw new NotFoundError("Order not found");
  const order = await Order.query(db).where("confirmationTokenHash", confirmationTokenHash(token)).first().select("id");
  if (!order) throw new NotFoundError("Order not found");
  return order.id;
}

/**
 * The orders of this phone that may be waiting for its customer's answer (cash on delivery,
 * Pending, not yet answered), newest first: the order's life tells which of them really wait
 * (server/modules/order-life/order-life.shared.ts, awaitsAnswer).
 */
export async function answerCandidates(db: Knex, phone: string): Promise<string[]> {
  const rows = await Order.query(db)
    .where({ phone, status: "Pending", confirmationStatus: "pending", paymentStatus: "on-delivery" })
    .orderBy([
      { column: "createdAt", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(20)
    .select("id");
  return rows.map((row) => row.id);
}

/**
 * Records the customer's (or an admin's) confirmation: the confirmation's who, how and when, and
 * `confirmedAt`, as every confirmation sets it. Confirming again changes nothing (false). The
 * caller has checked that the order may still be confirmed its way.
 */
export async function recordConfirmed(
  trx: Knex,
  order: { id: string },
  answer: { by: Confirmer; channel: ConfirmationChannel; now: Date; admin?: { _id: string; name: string } },
): Promise<void> {
  await Order.query(trx)
    .findById(order.id)
    .patch({
      confirmationStatus: "confirmed",
      confirmationBy: answer.by,
      confirmationChannel: answer.channel,
      confirmationAt: answer.now,
      confirmedAt: answer.now,
      confirmedBy: answer.admin?._id ?? null,
      confirmedByName: answer.admin?.name ?? null,
    });
}

/** Records that the customer cancelled from the confirmation (the flow cancels the order itself). */
export async function recordCancelledByCustomer(
  trx: Knex,
  order: { id: string },
  answer: { channel: Exclude<ConfirmationChannel, "phone">; now: Date },
): Promise<void> {
  await Order.query(trx).findById(order.id).patch({
    confirmationStatus: "cancelled",
    confirmationBy: "customer",
    confirmationChannel: answer.channel,
    confirmationAt: answer.now,
  });
}

/** Records why the store cancelled the order itself. */
export async function recordCancelReason(trx: Knex, orderId: string, reason: string): Promise<void> {
  await Order.query(trx).findById(orderId).patch({ cancelReason: reason });
}

/** Back to waiting for an answer (an admin's confirmation by phone undone). */
export async function recordUnconfirmed(trx: Knex, orderId: string): Promise<void> {
  await Order.query(trx).findById(orderId).patch({
    confirmationStatus: "pending",
    confirmationBy: null,
    confirmationChannel: null,
    confirmationAt: null,
    confirmedAt: null,
    confirmedBy: null,
    confirmedByName: null,
  });
}

/** A text to write for sending: to the order's phone, of this kind, in the order's language, by a channel. */
export type OrderTextToQueue = {
  orderId: string;
  channel: TextChannel;
  kind: OrderMessageKind;
  language: MessageLanguage;
  phone: string;
  /** The courier's event a delivery attempt's text tells of (that kind only). */
  shipmentEventId?: string | null;
};

/**
 * Whether the number has had its confirmation requests of the last 24 hours, as a part of the
 * caller's statement (`name`, one row: `limited`): the orders sent a confirmation text to it, by
 * any channel (files too: the cap keeps the number from floods, whichever way they go) and by any
 * account, counted once each however many texts an order took (the SMS that replaced a refused
 * WhatsApp text, the admin's "Send again"). Checkout reads it under the phone's lock, in the
 * statement that writes the order: the statement's snapshot is taken after the lock was
 * granted, so it counts the requests of every checkout of the number committed before.
 */
export function confirmationCapPart(name: string, phone: string): StatementPart {
  return {
    name,
    sql: `SELECT COUNT(DISTINCT order_id) >= ${CONFIRMATION_REQUESTS_PER_NUMBER} AS limited
            FROM order_messages
           WHERE phone = :cappedPhone AND kind = 'confirmation' AND created_at > now() - interval '24 hours'`,
    bindings: { cappedPhone: phone },
  };
}

/**
 * Texts written as a part of the caller's statement (`name` answers each text's `id`, `order_id`);
 * with `unlessLimitedBy`, the name of an earlier confirmationCapPart, none when it says `limited`.
 */
export function orderTextsInsertPart(
  name: string,
  texts: OrderTextToQueue[],
  options: { unlessLimitedBy?: string } = {},
): StatementPart {
  const binding = `${name}Texts`;
  const unless = options.unlessLimitedBy ? `WHERE NOT (SELECT limited FROM ${options.unlessLimitedBy})` : "";
  return {
    name,
    sql: `INSERT INTO order_messages (order_id, channel, kind, language, phone)
          SELECT text.order_id, text.channel, text.kind, text.language, text.phone
            FROM jsonb_to_recordset(:${binding}::jsonb) AS text(order_id uuid, channel text, kind text, language text,
                                                                phone text)
           ${unless}
          RETURNING id, order_id`,
    bindings: {
      [binding]: JSON.stringify(
        texts.map((text) => ({
          order_id: text.orderId,
          channel: text.channel,
          kind: text.kind,
          language: text.language,
          phone: text.phone,
        })),
      ),
    },
  };
}

/** Texts written in the caller's transaction; answers their ids, in order. */
export async function queueOrderTexts(trx: Knex, texts: OrderTextToQueue[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const rows = await trx("order_messages")
    .insert(
      texts.map((text) => ({
        order_id: text.orderId,
        channel: text.channel,
        kind: text.kind,
        language: text.language,
        phone: text.phone,
        shipment_event_id: text.shipmentEventId ?? null,
      })),
    )
    .returning("id");
  return rows.map((row: { id: string }) => row.id);
}

/** A customer's reply as a provider delivered it (a WhatsApp message, an inbound SMS). */
export type ReplyReceived = {
  channel: "whatsapp" | "sms";
  providerMessageId: string;
  phone: string;
  body: string;
};

/**
 * Records a reply, once per provider's message id: false when it was recorded before (a webhook
 * delivered again), so that the caller changes nothing the second time. In the caller's
 * transaction: a second delivery arriving meanwhile waits for it, then finds the reply.
 */
export async function recordReply(trx: Knex, reply: ReplyReceived): Promise<string | null> {
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `INSERT INTO order_message_replies (channel, provider_message_id, phone, body, action)
     VALUES (?, ?, ?, ?, 'none')
     ON CONFLICT (provider_message_id) DO NOTHING
     RETURNING id`,
    [reply.channel, reply.providerMessageId.slice(0, 100), reply.phone.slice(0, 16), reply.body.slice(0, 500)],
  );
  return rows[0]?.id ?? null;
}

/** What a reply did to which order. */
export async function recordReplyOutcome(
  trx: Knex,
  replyId: string,
  outcome: { orderId: string | null; action: "confirmed" | "cancelled" | "none" },
): Promise<void> {
  await trx("order_message_replies")
    .where({ id: replyId })
    .update({ order_id: outcome.orderId, action: outcome.action });
}

/** A text's progress as its provider reported it, in the order it happens. */
const STATUS_ORDER = { queued: 0, sent: 1, delivered: 2, read: 3 } as const;

/**
 * Records a provider's report on a text it took (by the provider's message id): a status only
 * moves forward (a late `sent` after `read` changes nothing), and `failed` is taken once.
 * Answers the text when this report made it fail (the caller falls back to SMS), else null.
 */
export async function recordTextStatus(
  trx: Knex,
  report: {
    channel: "whatsapp" | "sms";
    providerMessageId: string;
    status: keyof typeof STATUS_ORDER | "failed";
    error?: string;
    at: Date;
  },
): Promise<(OrderTextToQueue & { id: string }) | null> {
  if (report.status === "failed") {
    const [failed] = await trx("order_messages")
      .where({ provider_message_id: report.providerMessageId, channel: report.channel })
      .whereNot("status", "failed")
      .update({
        status: "failed",
        failed_at: report.at,
        error: (report.error ?? "Reported failed").slice(0, 500),
        updated_at: report.at,
      })
      .returning(["id", "order_id", "channel", "kind", "language", "phone", "shipment_event_id"]);
    // The connection maps the columns to camelCase (server/db/database.ts).
    return failed
      ? {
          id: failed.id,
          orderId: failed.orderId,
          channel: failed.channel,
          kind: failed.kind,
          language: failed.language,
          phone: failed.phone,
          shipmentEventId: failed.shipmentEventId,
        }
      : null;
  }
  const status = report.status;
  const column = { queued: null, sent: "sent_at", delivered: "delivered_at", read: "read_at" }[status];
  const earlier = Object.entries(STATUS_ORDER)
    .filter(([, rank]) => rank < STATUS_ORDER[status])
    .map(([status]) => status);
  if (earlier.length === 0) return null;
  await trx("order_messages")
    .where({ provider_message_id: report.providerMessageId, channel: report.channel })
    .whereIn("status", earlier)
    .update({ status, ...(column ? { [column]: report.at } : {}), updated_at: report.at });
  return null;
}

/**
 * The order's confirmation request as its life reads it (server/modules/order-life/), an SQL
 * expression on `orders`: `texted` once a confirmation text really left the store by WhatsApp or
 * SMS (its provider took it), `unsent` while it is only a file, queued or failed; without one,
 * `limited` when the number had had its requests of the day at checkout, else `none`.
 */
export const CONFIRMATION_REQUEST_SQL = `(SELECT CASE
      WHEN COUNT(*) = 0 THEN CASE WHEN orders.confirmation_text_limited THEN 'limited' ELSE 'none' END
      WHEN bool_or(sent.channel IN ('whatsapp', 'sms') AND sent.status IN ('sent', 'delivered', 'read')) THEN 'texted'
      ELSE 'unsent' END
    FROM order_messages sent WHERE sent.order_id = orders.id AND sent.kind = 'confirmation')`;

/** How many texts of this kind were written for the order (the confirmation's "Send again" counts them). */
export async function confirmationTextsSent(
  trx: Knex,
  orderId: string,
  kind: OrderMessageKind = "confirmation",
): Promise<number> {
  const [{ count }] = await trx("order_messages")
    .where({ order_id: orderId, kind })
    .count<{ count: string }[]>("* as count");
  return Number(count);
}

/**
 * Orders that may be due their one reminder (cash on delivery, Pending and unanswered, placed
 * before `remindBefore` and, when orders are cancelled at all, after `cancelBefore`, with a
 * confirmation text and no reminder yet), oldest first; the order's life decides each under its lock.
 */
export async function reminderCandidates(
  db: Knex,
  window: { remindBefore: Date; cancelBefore: Date | null },
): Promise<string[]> {
  return db("orders")
    .where({ status: "Pending", confirmation_status: "pending", payment_status: "on-delivery" })
    .whereNotNull("phone")
    .where("created_at", "<=", window.remindBefore)
    .modify((query) => {
      if (window.cancelBefore) query.where("created_at", ">", window.cancelBefore);
    })
    .whereExists((query) =>
      query.select(1).from("order_messages").whereRaw("order_messages.order_id = orders.id AND kind = 'confirmation'"),
    )
    .whereNotExists((query) =>
      query.select(1).from("order_messages").whereRaw("order_messages.order_id = orders.id AND kind = 'reminder'"),
    )
    .orderBy("created_at")
    .limit(500)
    .pluck("id");
}

/** Orders that may be due the "Not confirmed" sweep (placed at or before `cancelBefore`), oldest first. */
export async function sweepCandidates(db: Knex, cancelBefore: Date, limit: number): Promise<string[]> {
  return db("orders")
    .where({ status: "Pending", confirmation_status: "pending", payment_status: "on-delivery" })
    .whereNotNull("phone")
    .where("created_at", "<=", cancelBefore)
    .whereExists((query) =>
      query.select(1).from("order_messages").whereRaw("order_messages.order_id = orders.id AND kind = 'confirmation'"),
    )
    .orderBy("created_at")
    .limit(limit)
    .pluck("id");
}
