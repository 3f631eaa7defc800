import type { Database } from "../../db/database";
import { addDays, type ReportPeriod } from "./report-period.shared";
import { PRODUCT_DAYS } from "./report-days";
import { additiveRowsOf, type LiveDays } from "./period-rows";

/**
 * The stock report (docs/product.md, "Reports"): the products at or below their reorder level
 * (a product's field, 2 unless set), each with its days of cover: its stock divided by its daily
 * sales over the 30 days that end on the period's last day (units of orders placed then and not
 * cancelled); and the products out of stock with customers waiting for the back-in-stock mail.
 * Stock is as it is now: the store keeps no history of it, so there is no period before to
 * compare with (`previous` is null).
 */
export type LowStockProduct = {
  productId: string;
  name: string;
  brand: string;
  stock: number;
  reorderLevel: number;
  /** Units sold in the 30 days. */
  unitsSold: number;
  /** Days the stock lasts at that pace, one decimal; null when nothing sold (it lasts). */
  daysOfCover: number | null;
  /** Customers waiting for its back-in-stock mail. */
  waitingAlerts: number;
};

export type StockTotals = { lowStock: number; outOfStock: number; waitingAlerts: number };

export type StockReport = {
  /** Out of stock first, then the fewest days of cover. */
  series: LowStockProduct[];
  totals: StockTotals;
  previous: null;
  /** The days the sales pace is measured over. */
  salesWindow: ReportPeriod;
};

/** Days of cover are measured at this many days' sales. */
export const COVER_WINDOW_DAYS = 30;

/** The days whose sales give the pace: the 30 days that end on the period's last day. */
export function salesWindowOf(period: ReportPeriod): ReportPeriod {
  return { from: addDays(period.to, -(COVER_WINDOW_DAYS - 1)), to: period.to };
}

/**
 * The units sold come from the products' kept days (report-days.ts, the products report's units:
 * lines of orders not cancelled), `live` being the window's days that are not kept: the order
 * lines of 30 days are not read for every look at the stock. Units are a sum, so a month the
 * window covers in part may be read as its month row less the days left out (additiveRowsOf).
 */
export async function stockReport(db: Database, period: ReportPeriod, live: LiveDays): Promise<StockReport> {
  const salesWindow = salesWindowOf(period);
  const sales = additiveRowsOf(PRODUCT_DAYS, salesWindow, live);
  const { rows } = await db.raw<{ rows: Omit<LowStockProduct, "daysOfCover">[] }>(
    `SELECT products.id AS "productId", products.name, products.brand, products.stock,
            products.reorder_level AS "reorderLevel", COALESCE(sold.units, 0)::int AS "unitsSold",
            COALESCE(waiting.alerts, 0)::int AS "waitingAlerts"
       FROM products
       LEFT JOIN (SELECT days.product_id, SUM(days.units) AS units
                    FROM (${sales.sql}) days
                   WHERE days.product_id IS NOT NULL
                   GROUP BY 1) sold ON sold.product_id = products.id
       LEFT JOIN (SELECT product_id, COUNT(*) AS alerts FROM stock_alerts WHERE state = 'waiting'
                   GROUP BY 1) waiting ON waiting.product_id = products.id
      WHERE products.stock <= products.reorder_level
      ORDER BY products.stock, products.name, products.id`,
    sales.bindings,
  );
  const series = rows
    .map((row) => ({
      ...row,
      daysOfCover: row.unitsSold === 0 ? null : Math.round((row.stock * COVER_WINDOW_DAYS * 10) / row.unitsSold) / 10,
    }))
    .sort(
      (a, b) =>
        Number(b.stock === 0) - Number(a.stock === 0) ||
        (a.daysOfCover ?? Infinity) - (b.daysOfCover ?? Infinity) ||
        a.name.localeCompare(b.name),
    );
  const outOfStock = series.filter((product) => product.stock === 0);
  return {
    series,
    totals: {
      lowStock: series.length,
      outOfStock: outOfStock.length,
      waitingAlerts: outOfStock.reduce((total, product) => total + product.waitingAlerts, 0),
    },
    previous: null,
    salesWindow,
  };
}
