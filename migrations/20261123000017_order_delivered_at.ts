import type { Knex } from "knex";

/**
 * When an order was delivered: the 7 days of a return run from it (docs/product.md, "Returns").
 * Orders delivered before this change take their last update, the best record there is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.timestamp("delivered_at", { useTz: true });
  });
  await knex.raw("UPDATE orders SET delivered_at = updated_at WHERE status = 'Delivered' AND delivered_at IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.dropColumn("delivered_at");
  });
}
