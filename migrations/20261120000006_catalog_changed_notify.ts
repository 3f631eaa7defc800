import type { Knex } from "knex";

/**
 * Every change to products (a new watch, a price, a stock count after a checkout, a delete)
 * tells every app server, through PostgreSQL's NOTIFY, that cached guest pages are stale. The
 * notification is delivered when the transaction commits, never before, and whatever made the
 * change (a page, the API, a checkout, SQL by hand) cannot forget it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION notify_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('catalog_changed', '');
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER products_catalog_changed
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER IF EXISTS products_catalog_changed ON products");
  await knex.raw("DROP FUNCTION IF EXISTS notify_catalog_changed()");
}
