import type { Knex } from "knex";

/**
 * Name A to Z means what a shopper reads: "alpha" before "Beta". The database may be created
 * with the C collation (byte order, capitals first), so the name sort orders by lower(name)
 * and its indexes follow.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS products_name_idx");
  await knex.raw("DROP INDEX IF EXISTS products_category_name_idx");
  await knex.raw("CREATE INDEX products_lower_name_idx ON products (lower(name), id)");
  await knex.raw("CREATE INDEX products_category_lower_name_idx ON products (category, lower(name), id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS products_lower_name_idx");
  await knex.raw("DROP INDEX IF EXISTS products_category_lower_name_idx");
  await knex.raw("CREATE INDEX products_name_idx ON products (name, id)");
  await knex.raw("CREATE INDEX products_category_name_idx ON products (category, name, id)");
}
