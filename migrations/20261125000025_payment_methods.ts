import type { Knex } from "knex";

/**
 * An order's payment method comes from the payment methods the code registers
 * (server/providers/payment-methods/payment-methods.shared.ts), never from the database: checkout
 * writes it, so the column loses its default. The CHECK lists the registered methods' names, as
 * they were when this ran; a method added later comes with a migration of its own that lists the
 * names again (docs/recipes.md), and server/providers/payment-methods/payment-methods.test.ts
 * fails until it does.
 */
const PAYMENT_METHOD_NAMES = ["Cash on Delivery"];

const list = (names: string[]) => names.map((name) => `'${name.replace(/'/g, "''")}'`).join(", ");

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE orders ALTER COLUMN payment_method DROP DEFAULT");
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks(["orders_payment_method_valid"]);
    t.check(`payment_method IN (${list(PAYMENT_METHOD_NAMES)})`, [], "orders_payment_method_valid");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks(["orders_payment_method_valid"]);
    t.check("payment_method = 'Cash on Delivery'", [], "orders_payment_method_valid");
  });
  await knex.raw("ALTER TABLE orders ALTER COLUMN payment_method SET DEFAULT 'Cash on Delivery'");
}
