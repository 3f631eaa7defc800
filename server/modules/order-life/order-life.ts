import type { Knex } from "knex";
import { paymentMethodNamed } from "../../providers/payment-methods/payment-methods.shared";
import { CONFIRMATION_REQUEST_SQL, answerCandidates } from "../confirmation/order-confirmation";
import { PARCEL_STATE_SQL } from "../fulfilment/shipments";
import { Order } from "../orders/order.model";
import { OPEN_RETURNS_SQL } from "../orders/order-state";
import { REFUND_STATE_SQL } from "../payments/refunds";
import { NotFoundError } from "../shared/errors.shared";
import { awaitsAnswer, type LifeState } from "./order-life.shared";

/**
 * An order read with its four lives (order-life.shared.ts): the orders' row, locked for the rest
 * of the transaction, with its parcel (fulfilment), its confirmation request (confirmation), its
 * refund (payments) and its open returns, each module's SQL read in the same statement.
 */

/** The columns of the lives beside the order's own, as one statement reads them. */
export const LIFE_COLUMNS = [
  Order.raw(`${PARCEL_STATE_SQL} AS "lifeParcel"`),
  Order.raw(`${CONFIRMATION_REQUEST_SQL} AS "lifeRequest"`),
  Order.raw(`${REFUND_STATE_SQL} AS "lifeRefund"`),
  Order.raw(`${OPEN_RETURNS_SQL} AS "lifeReturns"`),
];

export type LifeColumns = {
  lifeParcel: LifeState["parcel"];
  lifeRequest: "texted" | "unsent" | "none";
  lifeRefund: "due" | "paid" | null;
  lifeReturns: boolean;
};

/** An order as a change of its life reads it: every column, and its state in the table's terms. */
export type LiveOrder = Order & { life: LifeState };

/**
 * The order's consignment: a booking through a courier's API, or a Pending order that carries a
 * courier's tracking number (handed over before its status moved). A parcel the store marked
 * returned to sender is back, whatever the courier still says.
 */
function parcelOf(row: Order & LifeColumns): LifeState["parcel"] {
  if (row.outcomeKind) return "none";
  if (row.lifeParcel !== "none") return row.lifeParcel;
  return row.status === "Pending" && (row.trackingNumber || row.courier) ? "booked" : "none";
}

/** The state of an order's four lives, from its row and the lives' columns. */
export function lifeStateOf(row: Order & LifeColumns): LifeState {
  const advance = paymentMethodNamed(row.paymentMethod).paidBeforeShipping;
  return {
    status: row.status,
    payment: row.paymentStatus,
    advance,
    confirmation: row.confirmationStatus,
    request: advance || !row.phone ? "none" : row.lifeRequest,
    parcel: parcelOf(row),
    outcome: row.outcomeKind === null ? "none" : row.receivedBackAt ? "received-back" : "returned",
    returns: Boolean(row.lifeReturns),
    refund: row.lifeRefund ?? "none",
    placedAt: new Date(row.createdAt),
  };
}

/** The row's life, its lives' columns taken off it (they are no order fields). */
export function takeLife(row: Order & LifeColumns): LifeState {
  const life = lifeStateOf(row);
  const columns = row as Partial<LifeColumns>;
  delete columns.lifeParcel;
  delete columns.lifeRequest;
  delete columns.lifeRefund;
  delete columns.lifeReturns;
  return life;
}

function live(row: Order & LifeColumns): LiveOrder {
  const order = row as unknown as LiveOrder;
  order.life = takeLife(row);
  return order;
}

/**
 * The order, locked for the rest of the transaction, with its lives; with `ownerId` only that
 * customer's (anyone else's does not exist for them). 404 when there is none.
 */
export function lockLife(trx: Knex, orderId: string, options: { ownerId?: string } = {}): Promise<LiveOrder> {
  return readLife(trx, orderId, { ...options, lock: true });
}

/**
 * The order with its lives as `lockLife` reads it, without the lock unless asked: a look before
 * the work that the locked change repeats (an upload's owner checked before its bytes are read).
 */
export async function readLife(
  db: Knex,
  orderId: string,
  options: { ownerId?: string; lock?: boolean } = {},
): Promise<LiveOrder> {
  const query = Order.query(db)
    .findById(orderId)
    .select("orders.*", ...LIFE_COLUMNS);
  if (options.lock) query.forUpdate();
  if (options.ownerId !== undefined) query.where("userId", options.ownerId);
  const row = (await query) as (Order & LifeColumns) | undefined;
  if (!row) throw new NotFoundError("Order not found");
  return live(row);
}

/** The lives of these orders, read without a lock (the pages' and the API's offers), by id. */
export async function lifeStatesOf(db: Knex, orderIds: readonly string[]): Promise<Map<string, LifeState>> {
  const found = new Map<string, LifeState>();
  if (orderIds.length === 0) return found;
  const rows = (await Order.query(db)
    .whereIn("orders.id", orderIds)
    .select("orders.*", ...LIFE_COLUMNS)) as (Order & LifeColumns)[];
  for (const row of rows) found.set(row.id, lifeStateOf(row));
  return found;
}

/**
 * The orders of a phone that wait for its customer's answer (awaitsAnswer: cash on delivery, a
 * request that really reached the phone, nothing answered or booked yet), newest first.
 */
export async function ordersAwaitingAnswer(db: Knex, phone: string): Promise<{ id: string; totalPrice: number }[]> {
  const ids = await answerCandidates(db, phone);
  if (ids.length === 0) return [];
  const rows = (await Order.query(db)
    .whereIn("orders.id", ids)
    .select("orders.*", ...LIFE_COLUMNS)) as (Order & LifeColumns)[];
  const waiting = rows.filter((row) => awaitsAnswer(lifeStateOf(row)));
  waiting.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  return waiting.map((row) => ({ id: row.id, totalPrice: Number(row.totalPrice) }));
}
