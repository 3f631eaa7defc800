import type { Knex } from "knex";

/** Lines of an order, one row per line: `product_id` (null for a product deleted since), `product_name` and `quantity`. */
export type LinesQuery = Knex.QueryBuilder;

/**
 * Each line with its product's weight today (an order keeps no copy of it), in one statement with
 * the lines' own query: `weightGrams` is null when the product has none or was deleted since.
 */
export async function linesWithWeights(
  db: Knex,
  lines: LinesQuery,
): Promise<{ productName: string; quantity: number; weightGrams: number | null }[]> {
  return db
    .from(lines.as("lines"))
    .leftJoin("products", "products.id", "lines.product_id")
    .select("lines.product_name", "lines.quantity", "products.weight_grams");
}
