import type { Knex } from "knex";

/**
 * A version of what a search can find, for the app servers' search result cache
 * (server/modules/catalog/search-cache.ts): one row whose value changes, in the same transaction,
 * with every change that can change which products a search finds or their order — a product
 * added or removed (or the table emptied), or its name, brand, description, category, price or
 * creation time written. A search reads it in the same statement (so the same snapshot) as its
 * matches, and a cached result is used only while the value read with the page is the same, so a
 * change is seen at once by every app server, with no notice to wait for.
 *
 * - Stock is not part of it: results hold ids and the count only, the products are read fresh,
 *   and checkout's stock updates (UPDATE OF stock) must not all queue on this one row.
 * - The value is random, not a counter: a restored or recreated database starts again from an
 *   older value, and a counter would give a value already seen with other products.
 * - Once per statement: a seed of thousands of rows writes the row once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE search_version (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      version uuid NOT NULL DEFAULT gen_random_uuid()
    )`);
  await knex.raw("INSERT INTO search_version DEFAULT VALUES");
  await knex.raw(`
    CREATE FUNCTION search_version_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE search_version SET version = gen_random_uuid();
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER search_version_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION search_version_changed()`);
  await knex.raw(`
    CREATE TRIGGER search_version_updated
    AFTER UPDATE OF name, brand, description, category, price, created_at ON products
    FOR EACH STATEMENT EXECUTE FUNCTION search_version_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER search_version_updated ON products");
  await knex.raw("DROP TRIGGER search_version_added_or_removed ON products");
  await knex.raw("DROP FUNCTION search_version_changed()");
  await knex.raw("DROP TABLE search_version");
}
