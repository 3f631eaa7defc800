import type { Knex } from "knex";

/**
 * Each product's reorder level (docs/product.md, "Reports"): the stock report lists the products
 * whose stock is at or below it. 2 unless the admin sets another; 0 lists a product only once it
 * is out of stock.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("products", (t) => {
    t.integer("reorder_level").notNullable().defaultTo(2);
    t.check("reorder_level >= 0", [], "products_reorder_level_not_negative");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("products", (t) => {
    t.dropChecks(["products_reorder_level_not_negative"]);
    t.dropColumn("reorder_level");
  });
}
