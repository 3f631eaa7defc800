import type { Knex } from "knex";
import type { StatementPart } from "../shared/statement";
import { Product } from "./product.model";

/**
 * The stock of the catalogue's products, as the flows move it (docs/decisions/2026-11-20-checkout-locks.md):
 * taken by checkout, given back by a cancellation or a received return, claimed again when an
 * order leaves Cancelled. Products are always locked in id order, as checkout locks them, so that
 * two of these never deadlock. Each runs in the caller's transaction; the database's CHECK
 * (stock >= 0) stands behind all of them.
 */

/** Units of products, one row per line: `product_id` (null for a product deleted since) and `quantity`. */
export type UnitsQuery = Knex.QueryBuilder;

/**
 * Checkout's part of its one writing statement (`taken`): the units off the shelf, whatever the
 * number of lines. The caller has locked the products in id order and checked that they are there.
 */
export function stockTakenPart(lines: { productId: string; quantity: number }[]): StatementPart {
  return {
    name: "taken",
    sql: `UPDATE products SET stock = products.stock - line.quantity, updated_at = now()
            FROM jsonb_to_recordset(:takenUnits::jsonb) AS line(product_id uuid, quantity int)
           WHERE products.id = line.product_id`,
    bindings: {
      takenUnits: JSON.stringify(lines.map((line) => ({ product_id: line.productId, quantity: line.quantity }))),
    },
  };
}

/**
 * The units go back on the shelf (products deleted since are skipped). The products are locked
 * first, in id order: the UPDATE alone takes its row locks in whatever order its plan visits them,
 * and could deadlock with a checkout of the same watches (seen once in tests/integration/races,
 * "cancel and un-cancel at once", as a 500). Answers the ids of the products that were sold out
 * before: their stock alerts are due now.
 */
export async function returnUnits(trx: Knex, units: UnitsQuery): Promise<string[]> {
  await Product.query(trx)
    .whereIn("id", trx.from(units.clone().as("units")).whereNotNull("product_id").select("product_id"))
    .orderBy("id")
    .forUpdate()
    .select("id");
  const { rows } = await trx.raw<{ rows: { id: string; was: number }[] }>(
    `UPDATE products SET stock = products.stock + returned.quantity, updated_at = now()
       FROM (SELECT product_id, SUM(quantity)::int AS quantity FROM ? AS units
              WHERE product_id IS NOT NULL GROUP BY product_id) AS returned
      WHERE products.id = returned.product_id
      RETURNING products.id, products.stock - returned.quantity AS was`,
    [units],
  );
  return rows.filter((row) => Number(row.was) === 0).map((row) => row.id);
}

/**
 * Takes the lines' units off the shelf again (an order leaving Cancelled), under locks in id
 * order, when every line's product is there with the stock; else takes nothing and answers what
 * stands in the way: the lines whose product is gone, or those short of stock.
 */
export async function claimUnits(
  trx: Knex,
  lines: { productId: string | null; name: string; quantity: number }[],
): Promise<{ gone: string[]; short: string[] }> {
  const gone = lines.filter((line) => line.productId === null).map((line) => line.name);
  if (gone.length > 0) return { gone, short: [] };
  const products = await Product.query(trx)
    .whereIn(
      "id",
      lines.map((line) => line.productId!),
    )
    .orderBy("id")
    .forUpdate()
    .select("id", "stock");
  const stockById = new Map(products.map((product) => [product.id, product.stock]));
  const short = lines.filter((line) => (stockById.get(line.productId!) ?? 0) < line.quantity).map((line) => line.name);
  if (short.length > 0) return { gone: [], short };
  await trx.raw(
    `UPDATE products SET stock = products.stock - taken.quantity, updated_at = now()
       FROM unnest(?::uuid[], ?::int[]) AS taken(product_id, quantity)
      WHERE products.id = taken.product_id`,
    [lines.map((line) => line.productId!), lines.map((line) => line.quantity)],
  );
  return { gone: [], short: [] };
}

/** Every product, counted (the dashboard). */
export async function countAllProducts(db: Knex): Promise<number> {
  return Product.query(db).resultSize();
}
