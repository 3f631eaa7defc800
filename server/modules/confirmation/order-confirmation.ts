import crypto from "node:crypto";
import type { Knex } from "knex";
import type { StatementPart } from "../shared/statement";
import { ConflictError, NotFoundError } from "../shared/errors.shared";
import { Order } from "../orders/order.model";
import type { OrderMessageKind, TextChannel } from "./order-confirmation.shared";
import { isConfirmedByAnswer } from "./order-confirmation.shared";
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

/** What the confirmation reads of an order, under its row lock. */
export type AnsweringOrder = Pick<
  Order,
  | "id"
  | "userId"
  | "status"
  | "createdAt"
  | "confirmedAt"
  | "customerName"
  | "customerEmail"
  | "phone"
  | "courier"
  | "trackingNumber"
  | "discountCodeId"
  | "discountCode"
  | "confirmationStatus"
  | "language"
  | "totalPrice"
  | "paymentStatus"
>;

const ANSWERING_COLUMNS = [
  "id",
  "userId",
  "status",
  "createdAt",
  "confirmedAt",
  "customerName",
  "customerEmail",
  "phone",
  "courier",
  "trackingNumber",
  "discountCodeId",
  "discountCode",
  "confirmationStatus",
  "language",
  "totalPrice",
  "paymentStatus",
] as const;

/**
 * The order a token belongs to, locked for the rest of the transaction (unless `lock` is false,
 * for reading); 404 when there is none.
 */
export async function lockOrderByToken(
  trx: Knex,
  token: string,
  options: { lock?: boolean } = {},
): Promise<AnsweringOrder> {
  if (!isConfirmationToken(token)) throw new NotFoundError("Order not found");
  const query = Order.query(trx).where("confirmationTokenHash", confirmationTokenHash(token));
  if (options.lock !== false) query.forUpdate();
  const order = await query.first().select(...ANSWERING_COLUMNS);
  if (!order) throw new NotFoundError("Order not found");
  return order as AnsweringOrder;
}

/** The order, locked, by its id (a job's or an admin's way in); 404 when there is none. */
export async function lockAnsweringOrder(trx: Knex, orderId: string): Promise<AnsweringOrder> {
  const order = await Order.query(trx)
    .findById(orderId)
    .forUpdate()
    .select(...ANSWERING_COLUMNS);
  if (!order) throw new NotFoundError("Order not found");
  return order as AnsweringOrder;
}

/**
 * The newest order of this phone still waiting for its customer's answer (an SMS reply names
 * no order), locked; null when there is none.
 */
export async function lockNewestAwaiting(trx: Knex, phone: string): Promise<AnsweringOrder | null> {
  const order = await Order.query(trx)
    .where({ phone, status: "Pending", confirmationStatus: "pending" })
    .whereNull("courier")
    .whereNull("trackingNumber")
    .orderBy([
      { column: "createdAt", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .forUpdate()
    .first()
    .select(...ANSWERING_COLUMNS);
  return (order as AnsweringOrder | undefined) ?? null;
}

export const CONFIRMATION_CLOSED = "This order can no longer be confirmed or cancelled here";

/**
 * Records the customer's (or an admin's) confirmation: the confirmation's who, how and when, and
 * `confirmedAt`, as every confirmation sets it. Confirming again changes nothing (false). The
 * caller has checked that the order may still be confirmed its way.
 */
export async function recordConfirmed(
  trx: Knex,
  order: AnsweringOrder,
  answer: { by: Confirmer; channel: ConfirmationChannel; now: Date; admin?: { _id: string; name: string } },
): Promise<boolean> {
  if (order.confirmationStatus === "confirmed" || order.confirmedAt) return false;
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
  return true;
}

/** Records that the customer cancelled from the confirmation (the flow cancels the order itself). */
export async function recordCancelledByCustomer(
  trx: Knex,
  order: AnsweringOrder,
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

/** Texts written as a part of the caller's statement (`name` answers each text's `id`, `order_id`). */
export function orderTextsInsertPart(name: string, texts: OrderTextToQueue[]): StatementPart {
  const binding = `${name}Texts`;
  return {
    name,
    sql: `INSERT INTO order_messages (order_id, channel, kind, language, phone)
          SELECT text.order_id, text.channel, text.kind, text.language, text.phone
            FROM jsonb_to_recordset(:${binding}::jsonb) AS text(order_id uuid, channel text, kind text, language text,
                                                                phone text)
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
 * Records that the store confirmed a Pending order with its customer by phone, and which admin
 * did (docs/product.md, "Confirming an order"): the confirmation by an admin, channel `phone`.
 * A second confirmation (by any channel) changes nothing; an order that is no longer Pending is
 * refused (409).
 */
export async function confirmOrder(
  trx: Knex,
  orderId: string,
  admin: { _id: string; name: string },
  now: Date,
): Promise<void> {
  const order = await lockAnsweringOrder(trx, orderId);
  if (order.status !== "Pending") throw new ConflictError("Only pending orders can be confirmed");
  // The page offers no "Confirmed by phone" for such an order (app/admin/order-confirmation.tsx): the API agrees.
  if (!isConfirmedByAnswer(order)) {
    throw new ConflictError("An order paid in advance is confirmed by its verified payment, not by phone");
  }
  await recordConfirmed(trx, order, { by: "admin", channel: "phone", now, admin });
}

/** Undoes a confirmation made by mistake, while the order is still Pending: it waits for an answer again. */
export async function undoConfirmation(trx: Knex, orderId: string): Promise<void> {
  const order = await Order.query(trx).findById(orderId).forUpdate().select("status", "confirmedAt");
  if (!order) throw new NotFoundError("Order not found");
  if (order.status !== "Pending") {
    throw new ConflictError("A confirmation can be undone only while the order is pending");
  }
  if (!order.confirmedAt) return;
  await recordUnconfirmed(trx, orderId);
}
