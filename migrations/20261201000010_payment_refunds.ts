import type { Knex } from "knex";

/**
 * The refund a cancelled order owes when the store holds its customer's money (docs/product.md,
 * "An order's life"): a verified advance payment, or a delivered parcel's cash. One per order: it
 * is `due` when the order is cancelled, and `paid` once an admin records how it was paid back (the
 * method and reference, as a return's refund is recorded). A restored order drops a refund still
 * due; a paid one keeps the order cancelled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("payment_refunds", (t) => {
    t.uuid("order_id").primary().references("orders.id").onDelete("CASCADE");
    t.decimal("amount", 12, 2).notNullable();
    t.string("status", 8).notNullable();
    t.string("method", 40);
    t.string("reference", 100);
    t.string("recorded_by_name", 100);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("paid_at", { useTz: true });
    t.check("status IN ('due', 'paid')", [], "payment_refunds_status_valid");
    t.check("amount >= 0", [], "payment_refunds_amount_not_negative");
    t.check("(status = 'paid') = (paid_at IS NOT NULL AND method IS NOT NULL)", [], "payment_refunds_paid_recorded");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("payment_refunds");
}
