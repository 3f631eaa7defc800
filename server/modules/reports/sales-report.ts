import type { Database } from "../../db/database";
import type { Grouping, ReportPeriod } from "./report-period.shared";
import { MONEY_DAYS, bucketOfDay } from "./report-days";
import { dayRowsOf, type LiveDays } from "./period-rows";
import { bucketsOf, moneyOf, periodBindings, type MoneyAmounts } from "./report-sql";

/**
 * The sales report (docs/product.md, "Reports"): the orders placed in the period, what they are
 * worth and how much of it is in the till. Orders counts those not cancelled, whose totals make
 * the revenue; the average order value is one divided by the other. Money in rupees.
 */
export type SalesFigures = {
  orders: number;
  revenue: number;
  averageOrderValue: number;
  /** Delivered cash-on-delivery orders (and verified advance payments), less refunds. */
  collected: number;
  /** Orders Pending or Shipped whose money is not in yet (not a verified advance payment). */
  toCollect: number;
  cancelledOrders: number;
  /** The cancelled orders' totals, outside the revenue. */
  cancelled: number;
};

/** One group of days: `period` is its first day (YYYY-MM-DD; a week starts on Monday). */
export type SalesPoint = SalesFigures & { period: string };

export type SalesReport = {
  series: SalesPoint[];
  totals: SalesFigures;
  previous: SalesFigures;
  by: Grouping;
};

type SalesRow = MoneyAmounts & { bucket: string; orders: number; cancelledOrders: number };

export async function salesReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  by: Grouping,
  live: LiveDays,
) {
  const [series, before] = await Promise.all([salesSeries(db, period, by, live), salesSeries(db, previous, by, live)]);
  return {
    series,
    totals: sumOfSales(series),
    previous: sumOfSales(before),
    by,
  } satisfies SalesReport;
}

async function salesSeries(db: Database, period: ReportPeriod, by: Grouping, live: LiveDays): Promise<SalesPoint[]> {
  const days = dayRowsOf(MONEY_DAYS, period, live);
  const { rows } = await db.raw<{ rows: SalesRow[] }>(
    `WITH buckets AS (${bucketsOf(by)}),
          placed AS (
            SELECT ${bucketOfDay("days.day", by)} AS bucket,
                   SUM(days.orders)::int AS orders, SUM(days.cancelled_orders)::int AS "cancelledOrders",
                   SUM(days.collected_amount) AS "collectedAmount", SUM(days.refunded_amount) AS "refundedAmount",
                   SUM(days.to_collect_amount) AS "toCollectAmount", SUM(days.cancelled_amount) AS "cancelledAmount"
              FROM (${days.sql}) days
             GROUP BY 1)
     SELECT to_char(buckets.bucket, 'YYYY-MM-DD') AS bucket,
            COALESCE(placed.orders, 0) AS orders, COALESCE(placed."cancelledOrders", 0) AS "cancelledOrders",
            COALESCE(placed."collectedAmount", 0) AS "collectedAmount",
            COALESCE(placed."refundedAmount", 0) AS "refundedAmount",
            COALESCE(placed."toCollectAmount", 0) AS "toCollectAmount",
            COALESCE(placed."cancelledAmount", 0) AS "cancelledAmount"
       FROM buckets LEFT JOIN placed ON placed.bucket = buckets.bucket
      ORDER BY buckets.bucket`,
    [...periodBindings(period), ...days.bindings],
  );
  return rows.map((row) => {
    const money = moneyOf(row);
    return { period: row.bucket, ...figuresOf(row.orders, row.cancelledOrders, money) };
  });
}

function figuresOf(
  orders: number,
  cancelledOrders: number,
  paisa: { revenue: number; collected: number; toCollect: number; cancelled: number },
): SalesFigures {
  return {
    orders,
    revenue: paisa.revenue / 100,
    averageOrderValue: orders === 0 ? 0 : Math.round(paisa.revenue / orders) / 100,
    collected: paisa.collected / 100,
    toCollect: paisa.toCollect / 100,
    cancelledOrders,
    cancelled: paisa.cancelled / 100,
  };
}

function sumOfSales(points: SalesPoint[]): SalesFigures {
  const paisa = (rupees: number) => Math.round(rupees * 100);
  let [orders, cancelledOrders, revenue, collected, toCollect, cancelled] = [0, 0, 0, 0, 0, 0];
  for (const point of points) {
    orders += point.orders;
    cancelledOrders += point.cancelledOrders;
    revenue += paisa(point.revenue);
    collected += paisa(point.collected);
    toCollect += paisa(point.toCollect);
    cancelled += paisa(point.cancelled);
  }
  return figuresOf(orders, cancelledOrders, { revenue, collected, toCollect, cancelled });
}
