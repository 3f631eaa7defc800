import type { Knex } from "knex";
import * as yup from "yup";
import { Order } from "../orders/order.model";
import { PAYMENT_REFERENCE_MAX, PAYMENT_REJECT_REASON_MAX } from "../orders/order-values.shared";

/**
 * An order's payment on its columns (docs/product.md, "Paying in advance", migration
 * 20261126000037): the customer's reference, the admin's verdict, and the orders the unpaid sweep
 * looks at. Each part runs in the caller's transaction, once the order's life allowed the change
 * (server/modules/order-life/order-life.shared.ts).
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

/**
 * The customer's transaction reference: the payment becomes `submitted` (again, after a
 * rejection, or with a corrected reference before the admin looked). The order's life allows it
 * (server/modules/order-life/): an order paid in advance, live, not yet verified.
 */
export async function recordPaymentReference(
  trx: Knex,
  orderId: string,
  submission: { reference: string; now: Date },
): Promise<void> {
  await Order.query(trx).findById(orderId).patch({
    paymentStatus: "submitted",
    paymentReference: submission.reference,
    paymentSubmittedAt: submission.now,
    paymentRejectedReason: null,
  });
}

/** The payment is verified (by an admin, or the gateway's checked word): the amount received and when. */
export async function recordPaymentVerified(
  trx: Knex,
  orderId: string,
  verified: { amount: number; now: Date },
): Promise<void> {
  await Order.query(trx).findById(orderId).patch({
    paymentStatus: "verified",
    paymentVerifiedAmount: verified.amount,
    paymentVerifiedAt: verified.now,
    paymentRejectedReason: null,
  });
}

/** An admin rejects the reference the customer sent, with why (the customer reads it and may send another). */
export async function recordPaymentRejected(trx: Knex, orderId: string, reason: string): Promise<void> {
  await Order.query(trx).findById(orderId).patch({ paymentStatus: "rejected", paymentRejectedReason: reason });
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
