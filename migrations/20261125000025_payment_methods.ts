import type { Knex } from "knex";

/**
 * An order's payment method is one of those the code registers
 * (server/providers/payment-methods/payment-methods.shared.ts): the CHECK lists the registered
 * methods' names, as they were when this ran. A method added later comes with a migration of its
 * own that lists the names again (docs/recipes.md); server/providers/payment-methods/payment-methods.test.ts
 * fails until it does. Checkout writes the method the registry gives; the column's default stays
 * for rows written by hand.
 */
const PAYMENT_METHOD_NAMES = ["Cash on Delivery"];

const list = (names: string[]) => names.map((name) => `'${name.replace(/'/g, "''")}'`).join(", ");

export async function up(knex: Knex): Promise<void> {
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
}
