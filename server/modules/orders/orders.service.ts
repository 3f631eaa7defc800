import type { Knex } from "knex";
import { Order } from "./order.model";

export type OrderQuery = ReturnType<typeof Order.query>;

/** Revenue counts every order that was not cancelled (docs/product.md, "Orders"). */
export const REVENUE_SQL = "COALESCE(SUM(total_price) FILTER (WHERE status <> 'Cancelled'), 0)";

/**
 * Orders with their items and returns (newest first), as the orders' own tables hold them: the
 * order-life module adds the parcel and the payment's screenshot (server/modules/order-life/orders-reading.ts).
 */
export async function readOrderRecords(db: Knex, narrow: (query: OrderQuery) => void): Promise<Order[]> {
  const query = Order.query(db)
    .modify("newestFirst")
    .withGraphFetched("[items(inCartOrder), returns(oldestFirst).items(inOrder)]")
    .select("orders.*");
  narrow(query);
  return query;
}
