import type { Knex } from "knex";

/**
 * Finer notices of catalogue changes (migration 6 sent one for any change, and every checkout
 * emptied every app server's guest page cache). Now:
 * - a new or deleted product, or a truncate: "*" (every page may change);
 * - an update that changes only stock, without taking a product in or out of stock: the ids of
 *   the products whose stock changed, so only the pages showing them are dropped;
 * - any other update (name, price, image, ..., or stock crossing zero, which moves a product
 *   into or out of "in stock" lists such as the home page's): "*".
 * Comparing whole rows minus stock and updated_at means a column added later counts as a change.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION notify_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('catalog_changed', '*');
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION notify_products_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      broad boolean;
      ids text;
    BEGIN
      SELECT
        bool_or(
          (to_jsonb(o) - 'stock' - 'updated_at') IS DISTINCT FROM (to_jsonb(n) - 'stock' - 'updated_at')
          OR (o.stock > 0) IS DISTINCT FROM (n.stock > 0)
        ),
        string_agg(n.id::text, ',') FILTER (WHERE o.stock IS DISTINCT FROM n.stock)
      INTO broad, ids
      FROM old_rows o FULL JOIN new_rows n ON n.id = o.id;
      IF broad OR length(ids) > 7000 THEN
        PERFORM pg_notify('catalog_changed', '*');
      ELSIF ids IS NOT NULL THEN
        PERFORM pg_notify('catalog_changed', ids);
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw("DROP TRIGGER products_catalog_changed ON products");
  await knex.raw(`
    CREATE TRIGGER products_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed()`);
  await knex.raw(`
    CREATE TRIGGER products_updated AFTER UPDATE ON products
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION notify_products_updated()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER products_updated ON products");
  await knex.raw("DROP TRIGGER products_added_or_removed ON products");
  await knex.raw("DROP FUNCTION notify_products_updated()");
  await knex.raw(`
    CREATE TRIGGER products_catalog_changed
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed()`);
}
