import type { Knex } from "knex";
import * as yup from "yup";
import { paymentMethodNamed } from "../../providers/payment-methods/payment-methods.shared";
import { ConflictError, NotFoundError } from "../shared/errors.shared";
import { Order } from "../orders/order.model";
import {
  PAYMENT_REFERENCE_MAX,
  PAYMENT_REJECT_REASON_MAX,
  SHIP_UNPAID_REFUSED,
  type OrderStatus,
  type PaymentStatus,
} from "../orders/order-values.shared";

/**
 * An order's payment on its own columns (docs/product.md, "Paying in advance", migration
 * 20261126000037): the customer's reference, the admin's verdict, and what the fulfilment flow
 * and the unpaid sweep ask of it. Each part runs in the caller's transaction.
 */

/** The transaction reference the customer sends (the order's page and POST /orders/{id}/payment-reference). */
export const paymentReferenceSchema = yup.object({
  reference: yup
    .string()
    .transform((value: unknown) => (typeof value === "string" ? value.trim().replace(/\s+/g, " ") : value))
    .typeError("Transaction reference must be text")
    .required("Enter the transaction reference (TID) of your transfer")
    .max(PAYMENT_REFERENCE_MAX, `Transaction reference must be at most ${PAYMENT_REFERENCE_MAX} characters`)
    .matches(/^[A-Za-z0-9][A-Za-z0-9 /-]*$/, {
      message: "Transaction reference may contain letters, digits, spaces, dashes and slashes only",
      excludeEmptyString: true,
    }),
});

/** An admin's verdict on a transfer (the order's admin page and PATCH /orders/{id}/payment). */
export const paymentVerdictSchema = yup.object({
  status: yup
    .string()
    .typeError('Status must be "verified" or "rejected"')
    .required('Status must be "verified" or "rejected"')
    .oneOf(["verified", "rejected"], 'Status must be "verified" or "rejected"'),
  reason: yup
    .string()
    .transform((value: unknown) => (typeof value === "string" ? value.trim() : value))
    .typeError("Reason must be text")
    .max(PAYMENT_REJECT_REASON_MAX, `Reason must be at most ${PAYMENT_REJECT_REASON_MAX} characters`)
    .when("status", {
      is: "rejected",
      then: (schema) => schema.required("Say why the payment is rejected (the customer reads it)"),
    }),
});

/** What a payment's change reads of the order, under its row lock. */
export type PaymentOrder = Pick<
  Order,
  | "id"
  | "userId"
  | "status"
  | "createdAt"
  | "customerName"
  | "customerEmail"
  | "phone"
  | "language"
  | "totalPrice"
  | "paymentMethod"
  | "paymentStatus"
>;

const PAYMENT_ORDER_COLUMNS = [
  "id",
  "userId",
  "status",
  "createdAt",
  "customerName",
  "customerEmail",
  "phone",
  "language",
  "totalPrice",
  "paymentMethod",
  "paymentStatus",
] as const;

/**
 * The order, locked, as a transfer's change needs it; with `ownerId` only that customer's (anyone
 * else's does not exist for them). 404 when there is none.
 */
export async function lockPaymentOrder(
  trx: Knex,
  orderId: string,
  options: { ownerId?: string } = {},
): Promise<PaymentOrder> {
  const query = Order.query(trx).findById(orderId).forUpdate();
  if (options.ownerId !== undefined) query.where("userId", options.ownerId);
  const order = await query.select(...PAYMENT_ORDER_COLUMNS);
  if (!order) throw new NotFoundError("Order not found");
  return { ...order, totalPrice: Number(order.totalPrice) };
}

/** A change of a transfer's payment needs an order paid in advance that is still live. */
function refuseUnlessOpenTransfer(order: PaymentOrder): void {
  if (!paymentMethodNamed(order.paymentMethod).paidBeforeShipping) {
    throw new ConflictError("This order is paid on delivery: it has no transfer to report or verify");
  }
  if (order.status === "Cancelled") throw new ConflictError("This order is cancelled");
  if (order.paymentStatus === "verified") throw new ConflictError("This order's payment is verified already");
}

/**
 * The customer's transaction reference: the payment becomes `submitted` (again, after a
 * rejection, or with a corrected reference before the admin looked). A verified payment, a
 * cancelled order or one paid on delivery: 409.
 */
export async function recordPaymentReference(
  trx: Knex,
  order: PaymentOrder,
  submission: { reference: string; now: Date },
): Promise<void> {
  refuseUnlessOpenTransfer(order);
  await Order.query(trx).findById(order.id).patch({
    paymentStatus: "submitted",
    paymentReference: submission.reference,
    paymentSubmittedAt: submission.now,
    paymentRejectedReason: null,
  });
}

/**
 * An admin's verdict: `verified` records the order's total as the amount received and when;
 * `rejected` (only a submitted reference: there is nothing else to reject) records why.
 */
export async function recordPaymentVerdict(
  trx: Knex,
  order: PaymentOrder,
  verdict: { status: "verified"; now: Date } | { status: "rejected"; reason: string },
): Promise<void> {
  refuseUnlessOpenTransfer(order);
  if (verdict.status === "verified") {
    await Order.query(trx).findById(order.id).patch({
      paymentStatus: "verified",
      paymentVerifiedAmount: order.totalPrice,
      paymentVerifiedAt: verdict.now,
      paymentRejectedReason: null,
    });
    return;
  }
  if (order.paymentStatus !== "submitted") {
    throw new ConflictError("Only a payment whose reference the customer sent can be rejected");
  }
  await Order.query(trx).findById(order.id).patch({
    paymentStatus: "rejected",
    paymentRejectedReason: verdict.reason,
  });
}

/**
 * Shipping (or delivering) an order paid in advance needs its payment verified (RULINGS, fifth
 * wave: 409). Cash on delivery is collected at the door, so it always may.
 */
export function refuseUnpaidShipping(
  order: { paymentMethod: string; paymentStatus: PaymentStatus },
  status: OrderStatus,
): void {
  if (status !== "Shipped" && status !== "Delivered") return;
  if (paymentMethodNamed(order.paymentMethod).paidBeforeShipping && order.paymentStatus !== "verified") {
    throw new ConflictError(SHIP_UNPAID_REFUSED);
  }
}

/** Transfers still unpaid (awaiting or rejected) on Pending orders placed at or before `before`, oldest first. */
export async function unpaidTransferIds(db: Knex, before: Date, limit: number): Promise<string[]> {
  return db("orders")
    .where({ status: "Pending" })
    .whereIn("payment_status", ["awaiting", "rejected"])
    .where("created_at", "<=", before)
    .orderBy("created_at")
    .limit(limit)
    .pluck("id");
}
