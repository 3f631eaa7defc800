import type { Database } from "../../db/database";
import type { Grouping, ReportPeriod } from "./report-period.shared";
import { CITY_DAYS, COURIER_DAYS, PRODUCT_DAYS, bucketOfDay, type DayTable } from "./report-days";
import { additiveRowsOf, dayRowsOf, periodRowsOf, type LiveDays } from "./period-rows";
import { paginationOf, type Pagination } from "../shared/list-query";
import { bucketsOf, pageBindings, periodBindings, shareOf, type ListPage } from "./report-sql";

export { NOT_BOOKED } from "./report-days";

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
  /** A page of the products, those with the most order lines first. */
  byProduct: OutcomeGroup[];
  /** Where that page sits among every product with a line in the period. */
  pagination: Pagination;
  /** The setting the cost was priced at (rupees), null when not set. */
  shippingCostEachWay: number | null;
  totals: DeliveriesTotals;
  previous: DeliveriesTotals;
  by: Grouping;
};

export async function deliveriesReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  by: Grouping,
  live: LiveDays,
  list: ListPage,
): Promise<DeliveriesReport> {
  // Every order has one city: the cities' rows add up to the orders of each day.
  const days = dayRowsOf(CITY_DAYS, period, live);
  const daysBefore = dayRowsOf(CITY_DAYS, previous, live);
  const [series, byCity, byCourier, byProduct, before, setting] = await Promise.all([
    db.raw<{ rows: (Outcomes & { period: string })[] }>(
      `WITH buckets AS (${bucketsOf(by)}),
            placed AS (SELECT ${bucketOfDay("days.day", by)} AS bucket, ${OUTCOME_SUMS}
                         FROM (${days.sql}) days GROUP BY 1)
       SELECT to_char(buckets.bucket, 'YYYY-MM-DD') AS period,
              COALESCE(placed.orders, 0) AS orders, COALESCE(placed.delivered, 0) AS delivered,
              COALESCE(placed.returned, 0) AS returned, COALESCE(placed.cancelled, 0) AS cancelled,
              COALESCE(placed.open, 0) AS open
         FROM buckets LEFT JOIN placed ON placed.bucket = buckets.bucket
        ORDER BY buckets.bucket`,
      [...periodBindings(period), ...days.bindings],
    ),
    groupedBy(db, CITY_DAYS, "days.name", period, live),
    groupedBy(db, COURIER_DAYS, "days.name", period, live),
    productsPage(db, period, live, list),
    db.raw<{ rows: Outcomes[] }>(
      `SELECT COALESCE(SUM(days.orders), 0)::int AS orders, COALESCE(SUM(days.delivered), 0)::int AS delivered,
              COALESCE(SUM(days.returned), 0)::int AS returned, COALESCE(SUM(days.cancelled), 0)::int AS cancelled,
              COALESCE(SUM(days.open), 0)::int AS open
         FROM (${daysBefore.sql}) days`,
      daysBefore.bindings,
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
    byProduct: byProduct.rows,
    pagination: byProduct.pagination,
    shippingCostEachWay,
    totals: totalsOf(sumOf(series.rows)),
    previous: totalsOf(before.rows[0] ?? sumOf([])),
    by,
  };
}

/** The kept outcome counts added up (a product's are its lines'). */
const OUTCOME_SUMS = `SUM(days.orders)::int AS orders, SUM(days.delivered)::int AS delivered,
  SUM(days.returned)::int AS returned, SUM(days.cancelled)::int AS cancelled, SUM(days.open)::int AS open`;

/** The outcomes per group, the groups with the most orders first. */
async function groupedBy(
  db: Database,
  table: DayTable,
  group: string,
  period: ReportPeriod,
  live: LiveDays,
): Promise<OutcomeGroup[]> {
  const days = periodRowsOf(table, period, live);
  const { rows } = await db.raw<{ rows: (Outcomes & { name: string })[] }>(
    `SELECT ${group} AS name, ${OUTCOME_SUMS}
       FROM (${days.sql}) days
      GROUP BY 1
      ORDER BY orders DESC, name`,
    days.bindings,
  );
  return rows.map(withReturnRate);
}

/**
 * A page of the outcomes per product (a product's are its order lines'), grouped by today's name
 * as the page shows it. The day rows are first added up per product (about 1,400 of them for 30
 * days of the bench, from some 10,000 day rows), then joined to today's names and grouped by name
 * (two products may share one), in one statement that also counts the groups.
 */
async function productsPage(
  db: Database,
  period: ReportPeriod,
  live: LiveDays,
  list: ListPage,
): Promise<{ rows: OutcomeGroup[]; pagination: Pagination }> {
  // Sums only (the names are today's or the deleted product's): a month row less some of its days will do.
  const days = additiveRowsOf(PRODUCT_DAYS, period, live);
  const { rows } = await db.raw<{ rows: [{ total: number; page: (Outcomes & { name: string })[] }] }>(
    `WITH per_product AS MATERIALIZED (
            SELECT days.product_id, days.deleted_name, ${OUTCOME_SUMS.replace("SUM(days.orders)", "SUM(days.lines)")}
              FROM (${days.sql}) days
             GROUP BY 1, 2
            HAVING SUM(days.lines) > 0),
          per_name AS MATERIALIZED (
            SELECT COALESCE(products.name, per_product.deleted_name) AS name,
                   ${OUTCOME_SUMS.replaceAll("days.", "per_product.")}
              FROM per_product LEFT JOIN products ON products.id = per_product.product_id
             GROUP BY 1)
     SELECT (SELECT COUNT(*)::int FROM per_name) AS total,
            (SELECT COALESCE(json_agg(json_build_object('name', name, 'orders', orders, 'delivered', delivered,
                                                        'returned', returned, 'cancelled', cancelled, 'open', open)
                                      ORDER BY orders DESC, name), '[]')
               FROM (SELECT * FROM per_name ORDER BY orders DESC, name LIMIT ? OFFSET ?) page) AS page`,
    [...days.bindings, ...pageBindings(list)],
  );
  const { total, page } = rows[0];
  const shown = list ?? { page: 1, limit: Math.max(1, total) };
  return { rows: page.map(withReturnRate), pagination: paginationOf(shown.page, shown.limit, total) };
}

function withReturnRate(row: Outcomes & { name: string }): OutcomeGroup {
  return { ...row, returnRate: shareOf(row.returned, row.delivered + row.returned) };
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
