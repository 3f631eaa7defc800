import type { Knex } from "knex";

/**
 * Paying in advance by bank transfer or Raast (docs/product.md, "Paying in advance"):
 * - the CHECK `orders_payment_method_valid` lists every registered method's name again, as
 *   docs/recipes.md asks, now with "Bank Transfer";
 * - each order's payment: `on-delivery` for cash on delivery (every order before this), else
 *   `awaiting` the customer's transfer, `submitted` with its reference, then `verified` (with the
 *   amount and when) or `rejected` (with the reason; the customer may send a reference again);
 * - `payment_discount`: what the store's discount for paying in advance took off the order;
 * - a partial index for the sweep that cancels transfers left unpaid (the job's query).
 */
const PAYMENT_METHOD_NAMES = ["Cash on Delivery", "Bank Transfer"];

const list = (names: string[]) => names.map((name) => `'${name.replace(/'/g, "''")}'`).join(", ");

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks(["orders_payment_method_valid"]);
    t.check(`payment_method IN (${list(PAYMENT_METHOD_NAMES)})`, [], "orders_payment_method_valid");
    t.string("payment_status", 12).notNullable().defaultTo("on-delivery");
    t.string("payment_reference", 100);
    t.timestamp("payment_submitted_at", { useTz: true });
    t.decimal("payment_verified_amount", 12, 2);
    t.timestamp("payment_verified_at", { useTz: true });
    t.string("payment_rejected_reason", 300);
    t.decimal("payment_discount", 12, 2).notNullable().defaultTo(0);
    t.check(
      "payment_status IN ('on-delivery', 'awaiting', 'submitted', 'verified', 'rejected')",
      [],
      "orders_payment_status_valid",
    );
    t.check(
      "(payment_method = 'Cash on Delivery') = (payment_status = 'on-delivery')",
      [],
      "orders_payment_status_of_method",
    );
    t.check("payment_discount >= 0", [], "orders_payment_discount_not_negative");
  });
  await knex.raw(
    `CREATE INDEX orders_unpaid_transfers_idx ON orders (created_at)
      WHERE status = 'Pending' AND payment_status IN ('awaiting', 'rejected')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX orders_unpaid_transfers_idx");
  await knex("orders").where({ payment_method: "Bank Transfer" }).update({ payment_method: "Cash on Delivery" });
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks([
      "orders_payment_method_valid",
      "orders_payment_status_valid",
      "orders_payment_status_of_method",
      "orders_payment_discount_not_negative",
    ]);
    t.dropColumns(
      "payment_status",
      "payment_reference",
      "payment_submitted_at",
      "payment_verified_amount",
      "payment_verified_at",
      "payment_rejected_reason",
      "payment_discount",
    );
    t.check("payment_method IN ('Cash on Delivery')", [], "orders_payment_method_valid");
  });
}
