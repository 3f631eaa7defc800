import type { Knex } from "knex";

/**
 * A cash-on-delivery order is confirmed by phone before it ships (docs/product.md, "Confirming
 * an order by phone"): when, and by which admin. The admin's name is copied, so the record
 * survives the admin's account (as an order keeps its customer's name). A partial index serves
 * the list of Pending orders still to be called.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.timestamp("confirmed_at", { useTz: true });
    t.uuid("confirmed_by").references("users.id").onDelete("SET NULL");
    t.string("confirmed_by_name", 100);
  });
  await knex.raw(
    "CREATE INDEX orders_unconfirmed_created_idx ON orders (created_at DESC, id) WHERE status = 'Pending' AND confirmed_at IS NULL",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS orders_unconfirmed_created_idx");
  await knex.schema.alterTable("orders", (t) => {
    t.dropColumn("confirmed_by_name");
    t.dropColumn("confirmed_by");
    t.dropColumn("confirmed_at");
  });
}
