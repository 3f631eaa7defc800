import type { Knex } from "knex";
import { REFUND_METHODS, type RefundMethod } from "../orders/return-values.shared";

/**
 * The refund a cancelled order owes when the store holds its customer's money (docs/product.md,
 * "An order's life"; migration 20261201000010): written `due` in the cancellation's transaction,
 * `paid` when an admin records how it was paid back. Each part runs in the caller's transaction.
 */

export { REFUND_METHODS };

/** A cancelled order's refund as the pages and the API show it. */
export type OrderRefund = {
  amount: number;
  status: "due" | "paid";
  method: RefundMethod | null;
  reference: string | null;
  paidAt: string | null;
};

/** The refund's state as the order's life reads it, an SQL expression on `orders` (null: none). */
export const REFUND_STATE_SQL = `(SELECT payment_refunds.status FROM payment_refunds WHERE payment_refunds.order_id = orders.id)`;

/** The order now owes its customer this amount (rupees); once per order. */
export async function recordRefundDue(trx: Knex, orderId: string, amount: number): Promise<void> {
  await trx("payment_refunds").insert({ orderId, amount, status: "due" }).onConflict("orderId").ignore();
}

/** A refund still due is no longer owed: its order was restored. */
export async function dropRefundDue(trx: Knex, orderId: string): Promise<void> {
  await trx("payment_refunds").where({ orderId, status: "due" }).delete();
}

/** The admin paid the refund back: how, and the transaction's reference (none for cash). */
export async function recordRefundPaid(
  trx: Knex,
  orderId: string,
  paid: { method: RefundMethod; reference: string | null; now: Date; by: string },
): Promise<void> {
  await trx("payment_refunds")
    .where({ orderId, status: "due" })
    .update({
      status: "paid",
      method: paid.method,
      reference: paid.reference,
      paidAt: paid.now,
      recordedByName: paid.by.slice(0, 100),
    });
}

/** The refunds of these orders, by order id. */
export async function refundsOf(db: Knex, orderIds: readonly string[]): Promise<Map<string, OrderRefund>> {
  const found = new Map<string, OrderRefund>();
  if (orderIds.length === 0) return found;
  const rows: {
    orderId: string;
    amount: string;
    status: "due" | "paid";
    method: RefundMethod | null;
    reference: string | null;
    paidAt: Date | null;
  }[] = await db("payment_refunds")
    .whereIn("orderId", orderIds)
    .select("orderId", "amount", "status", "method", "reference", "paidAt");
  for (const row of rows) {
    found.set(row.orderId, {
      amount: Number(row.amount),
      status: row.status,
      method: row.method,
      reference: row.reference,
      paidAt: row.paidAt ? new Date(row.paidAt).toISOString() : null,
    });
  }
  return found;
}
