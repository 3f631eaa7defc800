import type { Knex } from "knex";

/**
 * The catalogue's size per category, kept exact by triggers in the transaction of every change,
 * so that a list without a search answers its total (docs/api.md: `pagination.total` is exact)
 * without counting a hundred thousand rows on every page. Inserts and deletes update the counts
 * once per statement (a seed of many rows pays one UPDATE per category, taken in category order
 * so two such statements never deadlock); a change of category once per row that changes it;
 * the stock updates of checkout do not fire it at all (UPDATE OF category).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("product_counts", (t) => {
    t.string("category", 16).primary();
    t.bigInteger("products").notNullable();
    t.check("products >= 0", [], "product_counts_not_negative");
  });
  // No product may be added or removed between the count and the triggers.
  await knex.raw("LOCK TABLE products IN SHARE MODE");
  await knex.raw(`
    INSERT INTO product_counts (category, products)
    SELECT category, (SELECT count(*) FROM products WHERE products.category = categories.category)
      FROM (VALUES ('Men'), ('Women')) AS categories(category)`);
  await knex.raw(`
    CREATE FUNCTION product_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE changed record;
    BEGIN
      FOR changed IN SELECT category, count(*) AS n FROM added GROUP BY category ORDER BY category LOOP
        UPDATE product_counts SET products = products + changed.n WHERE category = changed.category;
      END LOOP;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION product_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE changed record;
    BEGIN
      FOR changed IN SELECT category, count(*) AS n FROM removed GROUP BY category ORDER BY category LOOP
        UPDATE product_counts SET products = products - changed.n WHERE category = changed.category;
      END LOOP;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION product_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE product_counts SET products = products + CASE WHEN category = NEW.category THEN 1 ELSE -1 END
       WHERE category IN (OLD.category, NEW.category);
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION product_counts_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE product_counts SET products = 0;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER product_counts_added AFTER INSERT ON products
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION product_counts_added()`);
  await knex.raw(`
    CREATE TRIGGER product_counts_removed AFTER DELETE ON products
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION product_counts_removed()`);
  await knex.raw(`
    CREATE TRIGGER product_counts_moved AFTER UPDATE OF category ON products
    FOR EACH ROW WHEN (OLD.category IS DISTINCT FROM NEW.category) EXECUTE FUNCTION product_counts_moved()`);
  await knex.raw(`
    CREATE TRIGGER product_counts_emptied AFTER TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION product_counts_emptied()`);
}

export async function down(knex: Knex): Promise<void> {
  for (const name of ["added", "removed", "moved", "emptied"]) {
    await knex.raw(`DROP TRIGGER product_counts_${name} ON products`);
    await knex.raw(`DROP FUNCTION product_counts_${name}()`);
  }
  await knex.schema.dropTable("product_counts");
}
