import type { Knex } from "knex";

/**
 * The parcel's outcome (docs/product.md, "Returned to sender"): a Shipped cash-on-delivery parcel
 * the courier brings back makes its order Cancelled with
 * - `outcome_kind` 'returned', its reason and when it was recorded (all three or none);
 * - `received_back_at`: when the store had the parcel back, which is when its units went back in
 *   stock, once (set only on an order returned to sender).
 * And each phone's record (the same page shows it beside the phone):
 * - `cancelled_by_customer`: the customer cancelled the order themselves (My Orders); orders
 *   cancelled before this column read as cancelled by the store, as nothing says otherwise;
 * - an index on the phone, which groups every order of a mobile number across accounts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.string("outcome_kind", 16);
    t.string("outcome_reason", 40);
    t.timestamp("outcome_at", { useTz: true });
    t.timestamp("received_back_at", { useTz: true });
    t.boolean("cancelled_by_customer").notNullable().defaultTo(false);
    t.check("outcome_kind IN ('returned')", [], "orders_outcome_kind_valid");
    t.check(
      "outcome_reason IN ('Refused at the door', 'Customer not reachable', 'Wrong address', 'Other')",
      [],
      "orders_outcome_reason_valid",
    );
    t.check("(outcome_kind IS NULL) = (outcome_reason IS NULL AND outcome_at IS NULL)", [], "orders_outcome_complete");
    t.check("received_back_at IS NULL OR outcome_kind IS NOT NULL", [], "orders_received_back_needs_outcome");
  });
  await knex.raw("CREATE INDEX orders_phone_idx ON orders (phone) WHERE phone IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS orders_phone_idx");
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks([
      "orders_outcome_kind_valid",
      "orders_outcome_reason_valid",
      "orders_outcome_complete",
      "orders_received_back_needs_outcome",
    ]);
    t.dropColumns("outcome_kind", "outcome_reason", "outcome_at", "received_back_at", "cancelled_by_customer");
  });
}
