import type { Database } from "../../db/database";
import type { Grouping, ReportPeriod } from "./report-period.shared";
import { bucketOf, bucketsOf, periodBindings, placedIn, shareOf } from "./report-sql";

/**
 * The deliveries report (docs/product.md, "Reports"): what became of the orders placed in the
 * period, per city, per courier and per product. Each order has one outcome: delivered, returned
 * to sender (the courier brought the parcel back: its order is Cancelled, migration
 * 20261126000035), cancelled (any other way), or still open (Pending or Shipped). The
 * return-to-sender rate counts the parcels that came to an end at the door: returned among
 * delivered and returned. Each return cost its shipping twice (out and back), at the merchant's
 * average cost of a parcel each way (/admin/settings/orders); unset, the cost is null.
 */
export type Outcomes = { orders: number; delivered: number; returned: number; cancelled: number; open: number };

export type OutcomeGroup = Outcomes & { name: string; returnRate: number };

export type DeliveriesTotals = Outcomes & {
  returnRate: number;
  /** Rupees; null while the average shipping cost is not set. */
  returnShippingCost: number | null;
};

export type DeliveriesReport = {
  /** Each group of days: `period` is its first day. */
  series: (Outcomes & { period: string })[];
  byCity: OutcomeGroup[];
  byCourier: OutcomeGroup[];
  byProduct: OutcomeGroup[];
  /** The setting the cost was priced at (rupees), null when not set. */
  shippingCostEachWay: number | null;
  totals: DeliveriesTotals;
  previous: DeliveriesTotals;
  by: Grouping;
};

/** One order, one outcome: the four counts add up to the orders. */
const OUTCOME_COLUMNS = `
  COUNT(*)::int AS orders,
  (COUNT(*) FILTER (WHERE orders.status = 'Delivered'))::int AS delivered,
  (COUNT(*) FILTER (WHERE orders.outcome_kind = 'returned'))::int AS returned,
  (COUNT(*) FILTER (WHERE orders.status = 'Cancelled' AND orders.outcome_kind IS NULL))::int AS cancelled,
  (COUNT(*) FILTER (WHERE orders.status IN ('Pending', 'Shipped')))::int AS open`;

/** An order without a courier yet (or cancelled before it had one). */
export const NOT_BOOKED = "Not booked";

/** Cities as customers type them: one group whatever the case and spaces. */
const CITY = "initcap(btrim(orders.city))";

export async function deliveriesReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  by: Grouping,
): Promise<DeliveriesReport> {
  const placed = periodBindings(period);
  const [series, byCity, byCourier, byProduct, before, setting] = await Promise.all([
    db.raw<{ rows: (Outcomes & { period: string })[] }>(
      `WITH buckets AS (${bucketsOf(by)}),
            placed AS (SELECT ${bucketOf("orders.created_at", by)} AS bucket, ${OUTCOME_COLUMNS}
                         FROM orders WHERE ${placedIn("orders.created_at")} GROUP BY 1)
       SELECT to_char(buckets.bucket, 'YYYY-MM-DD') AS period,
              COALESCE(placed.orders, 0) AS orders, COALESCE(placed.delivered, 0) AS delivered,
              COALESCE(placed.returned, 0) AS returned, COALESCE(placed.cancelled, 0) AS cancelled,
              COALESCE(placed.open, 0) AS open
         FROM buckets LEFT JOIN placed ON placed.bucket = buckets.bucket
        ORDER BY buckets.bucket`,
      [...placed, ...placed],
    ),
    groupedBy(db, CITY, "FROM orders", placed),
    groupedBy(db, `COALESCE(orders.courier, '${NOT_BOOKED}')`, "FROM orders", placed),
    groupedBy(
      db,
      "COALESCE(products.name, order_items.product_name)",
      `FROM order_items JOIN orders ON orders.id = order_items.order_id
       LEFT JOIN products ON products.id = order_items.product_id`,
      placed,
    ),
    db.raw<{ rows: Outcomes[] }>(
      `SELECT ${OUTCOME_COLUMNS} FROM orders WHERE ${placedIn("orders.created_at")}`,
      periodBindings(previous),
    ),
    db("order_rules").where({ id: 1 }).first("parcel_shipping_cost"),
  ]);
  const shippingCostEachWay = setting?.parcelShippingCost ?? null;
  const totalsOf = (outcomes: Outcomes): DeliveriesTotals => ({
    ...outcomes,
    returnRate: shareOf(outcomes.returned, outcomes.delivered + outcomes.returned),
    returnShippingCost:
      shippingCostEachWay === null ? null : (outcomes.returned * 2 * Math.round(shippingCostEachWay * 100)) / 100,
  });
  return {
    series: series.rows,
    byCity,
    byCourier,
    byProduct,
    shippingCostEachWay,
    totals: totalsOf(sumOf(series.rows)),
    previous: totalsOf(before.rows[0] ?? sumOf([])),
    by,
  };
}

/** The outcomes per group, the groups with the most orders first. */
async function groupedBy(db: Database, group: string, from: string, placed: string[]): Promise<OutcomeGroup[]> {
  const { rows } = await db.raw<{ rows: (Outcomes & { name: string })[] }>(
    `SELECT ${group} AS name, ${OUTCOME_COLUMNS}
       ${from}
      WHERE ${placedIn("orders.created_at")}
      GROUP BY 1
      ORDER BY orders DESC, name`,
    placed,
  );
  return rows.map((row) => ({ ...row, returnRate: shareOf(row.returned, row.delivered + row.returned) }));
}

function sumOf(points: Outcomes[]): Outcomes {
  const sum: Outcomes = { orders: 0, delivered: 0, returned: 0, cancelled: 0, open: 0 };
  for (const point of points) {
    sum.orders += point.orders;
    sum.delivered += point.delivered;
    sum.returned += point.returned;
    sum.cancelled += point.cancelled;
    sum.open += point.open;
  }
  return sum;
}
