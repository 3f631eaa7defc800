import type { Knex } from "knex";
import type { OrderShipment } from "../orders/order.shape";
import type { ParcelEvent, ParcelStage } from "../../providers/couriers/courier-provider.shared";
import { dateToZonedLocal } from "../shared/zoned-time.shared";
import { STORE_TIME_ZONE } from "../orders/order-values.shared";
import type { ApiCourier, ShipmentRow } from "./shipments";

/**
 * What the couriers reported of booked parcels (migrations/20261126000085_shipment_events.ts and
 * 20261126000086_courier_sync_backoff.ts): each parcel's events, stored once however often a
 * sync sees them, the parcels still to follow, and each courier's backoff after failures. Each
 * part runs in the caller's transaction; server/flows/courier-sync.ts puts them together.
 */

/** Stages after which a parcel's status no longer changes: it is no longer asked after. */
export const FINAL_STAGES: readonly ParcelStage[] = ["delivered", "cancelled"];

export type StoredEvent = {
  id: string;
  at: Date | null;
  seenAt: Date;
  position: number;
  status: ParcelStage | null;
  code: string | null;
  text: string;
  reason: string | null;
};

/**
 * The booked parcels of a courier still to follow: not delivered or cancelled, and not a return
 * already received back in the store. Oldest booking first.
 */
export async function parcelsToFollow(trx: Knex, courier: ApiCourier): Promise<ShipmentRow[]> {
  return trx<ShipmentRow>("shipments")
    .join("orders", "orders.id", "shipments.order_id")
    .where({ "shipments.courier": courier, "shipments.state": "booked" })
    .where((query) => query.whereNull("shipments.stage").orWhereNotIn("shipments.stage", FINAL_STAGES))
    .whereNull("orders.received_back_at")
    .orderBy("shipments.booked_at")
    .select("shipments.*");
}

/** Delivered cash-on-delivery parcels of a courier whose cash it has not paid over yet. */
export async function parcelsAwaitingPayment(trx: Knex, courier: ApiCourier): Promise<ShipmentRow[]> {
  return trx<ShipmentRow>("shipments")
    .join("orders", "orders.id", "shipments.order_id")
    .where({ "shipments.courier": courier, "shipments.state": "booked", "shipments.stage": "delivered" })
    .where("shipments.paid", false)
    .where("orders.payment_status", "on-delivery")
    .orderBy("shipments.booked_at")
    .select("shipments.*");
}

/** What the courier said of its payment of a parcel, and when it was asked. */
export async function recordPayment(
  trx: Knex,
  shipmentId: string,
  payment: { paid: boolean; paidOn: string | null; receipt: string | null },
  now: Date,
): Promise<void> {
  await trx("shipments")
    .where({ id: shipmentId })
    .update({
      paid: payment.paid,
      paidOn: payment.paidOn?.slice(0, 40) ?? null,
      paymentReceipt: payment.receipt?.slice(0, 100) ?? null,
      paidDate: payment.paid ? paidDateOf(payment.paidOn, now) : null,
      paymentCheckedAt: now,
      updatedAt: now,
    });
}

/**
 * The day a courier paid, from its words (docs/couriers.md, "Payments"): a date first
 * ("2026-11-26", or with a time: read in Pakistan, the couriers' zone, unless it names another
 * offset), or day first as Leopards writes dates ("26/11/2026", "26-11-26"); else, or when the
 * words name no real day, the day in Pakistan the store learned of the payment.
 */
export function paidDateOf(words: string | null, now: Date): string {
  const text = (words ?? "").trim();
  const withOffset = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i.test(text);
  if (withOffset) {
    const instant = new Date(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    if (!Number.isNaN(instant.getTime())) return dateToZonedLocal(instant.toISOString(), STORE_TIME_ZONE).slice(0, 10);
  }
  const yearFirst = /^(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(text);
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/.exec(text);
  const parts = yearFirst
    ? { year: Number(yearFirst[1]), month: Number(yearFirst[2]), day: Number(yearFirst[3]) }
    : dayFirst
      ? { year: Number(dayFirst[3]!.padStart(4, "20")), month: Number(dayFirst[2]), day: Number(dayFirst[1]) }
      : null;
  if (parts) {
    const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
    if (date.getUTCMonth() === parts.month - 1 && date.getUTCDate() === parts.day) {
      return date.toISOString().slice(0, 10);
    }
  }
  return dateToZonedLocal(now.toISOString(), STORE_TIME_ZONE).slice(0, 10);
}

/** The key that makes an event unique on its parcel: its time and code (or words), else its place. */
function eventKey(event: ParcelEvent, position: number): string {
  const what = event.code ?? event.text;
  return (event.at ? `${event.at}|${what}` : `#${position}|${what}`).slice(0, 400);
}

/**
 * Stores the parcel's events (oldest first, as the client reads them) and answers those that are
 * new, in their order: an event seen before is left as it is.
 */
export async function storeEvents(
  trx: Knex,
  shipment: Pick<ShipmentRow, "id" | "orderId">,
  events: readonly ParcelEvent[],
  now: Date,
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const rows = events.map((event, position) => ({
    shipmentId: shipment.id,
    orderId: shipment.orderId,
    at: event.at ? new Date(event.at) : null,
    seenAt: now,
    position,
    status: event.stage,
    code: event.code?.slice(0, 20) ?? null,
    text: event.text.slice(0, 300),
    reason: event.reason?.slice(0, 300) ?? null,
    eventKey: eventKey(event, position),
  }));
  const inserted: StoredEvent[] = await trx("shipment_events")
    .insert(rows)
    .onConflict(["shipment_id", "event_key"])
    .ignore()
    .returning(["id", "at", "seenAt", "position", "status", "code", "text", "reason"]);
  return inserted.sort((a, b) => a.position - b.position);
}

/**
 * The courier's event a delivery attempt's text tells of, with its parcel's courier and tracking
 * number (server/flows/order-texts.ts); undefined when it is gone.
 */
export async function attemptEventOf(
  trx: Knex,
  eventId: string | null,
): Promise<{ courier: ApiCourier; trackingNumber: string; reason: string | null; text: string } | undefined> {
  return trx("shipment_events as e")
    .join("shipments as s", "s.id", "e.shipment_id")
    .where("e.id", eventId)
    .first("s.courier", "s.tracking_number as trackingNumber", "e.reason", "e.text");
}

/** Where the parcel is now, as its last event with a known stage says, and when the courier last answered. */
export async function recordStage(
  trx: Knex,
  shipmentId: string,
  last: { stage: ParcelStage; at: Date } | null,
  now: Date,
): Promise<void> {
  await trx("shipments")
    .where({ id: shipmentId })
    .update({ ...(last ? { stage: last.stage, stageAt: last.at } : {}), syncedAt: now, updatedAt: now });
}

/** One event of an order's parcel as the API and the pages show it. */
export type TimelineEvent = {
  at: string;
  status: ParcelStage | null;
  code: string | null;
  text: string;
  reason: string | null;
};

/**
 * The booked parcel of each order, with its events oldest first (a time the courier did not give
 * is the time the store first saw the event), in one query for any number of orders.
 */
export async function shipmentsOf(db: Knex, orderIds: readonly string[]): Promise<Map<string, OrderShipment>> {
  const found = new Map<string, OrderShipment>();
  if (orderIds.length === 0) return found;
  const { rows } = await db.raw<{
    rows: ({ orderId: string } & OrderShipment)[];
  }>(
    `SELECT s.order_id AS "orderId", s.courier, s.tracking_number AS "trackingNumber",
            COALESCE((SELECT json_agg(json_build_object(
                       'at', to_char(COALESCE(e.at, e.seen_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                       'status', e.status, 'code', e.code, 'text', e.text, 'reason', e.reason)
                       ORDER BY COALESCE(e.at, e.seen_at), e.seen_at, e.position)
                        FROM shipment_events e WHERE e.shipment_id = s.id), '[]'::json) AS events,
            CASE WHEN s.payment_checked_at IS NULL THEN NULL
                 ELSE json_build_object('paid', s.paid, 'paidOn', s.paid_on, 'receipt', s.payment_receipt) END AS payment
       FROM shipments s
      WHERE s.order_id = ANY(?::uuid[]) AND s.state = 'booked'`,
    [[...orderIds]],
  );
  for (const { orderId, ...shipment } of rows) found.set(orderId, shipment);
  return found;
}

/** A courier's backoff: left alone until `retryAt` after `failures` failures in a row. */
export type CourierBackoff = { failures: number; retryAt: Date | null; lastError: string | null };

export async function backoffOf(trx: Knex, courier: ApiCourier): Promise<CourierBackoff> {
  const row = await trx("courier_sync_backoff").where({ courier }).first("failures", "retryAt", "lastError");
  return row ?? { failures: 0, retryAt: null, lastError: null };
}

/** Records a failure and when to ask again; answers the failures in a row, this one included. */
export async function recordCourierFailure(
  trx: Knex,
  courier: ApiCourier,
  error: string,
  retryAfterMs: (failures: number) => number,
  now: Date,
): Promise<CourierBackoff> {
  const { failures } = await backoffOf(trx, courier);
  const next = {
    failures: failures + 1,
    retryAt: new Date(now.getTime() + retryAfterMs(failures + 1)),
    lastError: error.slice(0, 500),
  };
  await trx("courier_sync_backoff")
    .insert({ courier, ...next, updatedAt: now })
    .onConflict("courier")
    .merge();
  return next;
}

export async function clearCourierFailures(trx: Knex, courier: ApiCourier, now: Date): Promise<void> {
  await trx("courier_sync_backoff")
    .where({ courier })
    .update({ failures: 0, retryAt: null, lastError: null, updatedAt: now });
}
