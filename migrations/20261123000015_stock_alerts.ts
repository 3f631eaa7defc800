import type { Knex } from "knex";

/**
 * "Notify me when it's back" (docs/product.md, "Back in stock"). A request waits while the
 * product is out of stock. When the stock goes from 0 to more, by any path (the admin's form, the
 * API, an order cancelled and its units returned, SQL by hand), a row trigger marks the waiting
 * requests of that product due, in the same transaction; the store then turns each due request
 * into one mail and marks it notified (the services at once, in that transaction; the outbox
 * sender for anything else). One waiting request per product and address.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("stock_alerts", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("product_id").notNullable().references("products.id").onDelete("CASCADE");
    t.specificType("email", "citext").notNullable();
    t.string("state", 16).notNullable().defaultTo("waiting");
    // Set when the mail is written: the link in it stops every alert to this address.
    t.string("unsubscribe_token_hash", 64).unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("notified_at", { useTz: true });
    t.timestamp("cancelled_at", { useTz: true });
    t.check("state in ('waiting', 'due', 'notified', 'cancelled')", [], "stock_alerts_state_valid");
  });
  await knex.raw(
    "CREATE UNIQUE INDEX stock_alerts_one_waiting_idx ON stock_alerts (product_id, email) WHERE state IN ('waiting', 'due')",
  );
  await knex.raw("CREATE INDEX stock_alerts_email_idx ON stock_alerts (email) WHERE state IN ('waiting', 'due')");
  await knex.raw("CREATE INDEX stock_alerts_due_idx ON stock_alerts (created_at) WHERE state = 'due'");
  await knex.raw(`
    CREATE FUNCTION stock_alerts_due() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE stock_alerts SET state = 'due' WHERE product_id = NEW.id AND state = 'waiting';
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER products_back_in_stock AFTER UPDATE OF stock ON products
    FOR EACH ROW WHEN (OLD.stock = 0 AND NEW.stock > 0) EXECUTE FUNCTION stock_alerts_due()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER products_back_in_stock ON products");
  await knex.raw("DROP FUNCTION stock_alerts_due()");
  await knex.schema.dropTable("stock_alerts");
}
