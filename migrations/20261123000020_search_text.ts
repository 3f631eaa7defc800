import type { Knex } from "knex";

/**
 * Faster catalogue searches and deep pages (docs/api.md: a search matches any part of the name,
 * brand or description, without regard to case).
 *
 * - `search_text`: name, brand and description lowered once when written, so that a search is a
 *   plain LIKE on it (ILIKE lowers every candidate row again on every search), through a trigram
 *   index on that column, which replaces the one on the expression.
 * - The name sorts' indexes carry the name itself, so that finding where a deep page starts is
 *   an index-only scan (an index on lower(name) alone cannot answer lower(name) without the row).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE products ADD COLUMN search_text text
      GENERATED ALWAYS AS (lower(name || ' ' || brand || ' ' || description)) STORED`);
  await knex.raw("CREATE INDEX products_search_text_idx ON products USING gin (search_text gin_trgm_ops)");
  await knex.raw("DROP INDEX products_search_trgm_idx");
  await knex.raw("DROP INDEX products_lower_name_idx");
  await knex.raw("DROP INDEX products_category_lower_name_idx");
  await knex.raw("CREATE INDEX products_lower_name_idx ON products (lower(name), id) INCLUDE (name)");
  await knex.raw(
    "CREATE INDEX products_category_lower_name_idx ON products (category, lower(name), id) INCLUDE (name)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX products_lower_name_idx");
  await knex.raw("DROP INDEX products_category_lower_name_idx");
  await knex.raw("CREATE INDEX products_lower_name_idx ON products (lower(name), id)");
  await knex.raw("CREATE INDEX products_category_lower_name_idx ON products (category, lower(name), id)");
  await knex.raw(
    "CREATE INDEX products_search_trgm_idx ON products USING gin ((name || ' ' || brand || ' ' || description) gin_trgm_ops)",
  );
  await knex.raw("DROP INDEX products_search_text_idx");
  await knex.raw("ALTER TABLE products DROP COLUMN search_text");
}
