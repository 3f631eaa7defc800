import type { Knex } from "knex";

/**
 * Each product's weight in grams, packed (docs/product.md, "Products"): a courier booking sends
 * each line's weight times its quantity, and the store's default a piece for a product without
 * one (server/flows/shipping.ts). Null: not given. The bounds are WEIGHT_GRAMS_MAX's
 * (server/modules/catalog/catalog-values.shared.ts), which the form and the API check first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("products", (t) => {
    t.integer("weight_grams");
    t.check("weight_grams IS NULL OR weight_grams BETWEEN 1 AND 30000", [], "products_weight_grams_valid");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("products", (t) => {
    t.dropChecks(["products_weight_grams_valid"]);
    t.dropColumn("weight_grams");
  });
}
