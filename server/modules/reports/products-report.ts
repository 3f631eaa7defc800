import type { Database } from "../../db/database";
import type { ReportPeriod } from "./report-period.shared";
import { PRODUCT_DAYS, periodRowsOf, type LiveDays } from "./report-days";

/**
 * The products report (docs/product.md, "Reports"): units sold and their revenue per product and
 * per brand, over the orders placed in the period and not cancelled, and the slowest movers of
 * the catalogue. A line's revenue is its units at the price sold, before the order's discount
 * (the payments report counts what discount codes gave away). A product deleted since keeps its
 * sold name, without a brand.
 */
export type ProductSales = {
  /** Null once the product was deleted. */
  productId: string | null;
  name: string;
  brand: string;
  units: number;
  revenue: number;
};

export type BrandSales = { brand: string; units: number; revenue: number };

/** A product in the catalogue today and the units it sold in the period (0 included). */
export type SlowMover = { productId: string; name: string; brand: string; stock: number; units: number };

export type ProductsTotals = { units: number; revenue: number; productsSold: number };

export type ProductsReport = {
  /** Best sellers first (by revenue, then units, then name). */
  series: ProductSales[];
  brands: BrandSales[];
  slowestMovers: SlowMover[];
  totals: ProductsTotals;
  previous: ProductsTotals;
};

/** The slowest movers listed: those with the fewest units sold. */
export const SLOWEST_MOVERS = 10;

export async function productsReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  live: LiveDays,
): Promise<ProductsReport> {
  const [series, before] = await Promise.all([productSales(db, period, live), productSales(db, previous, live)]);
  const slowestMovers = await slowMovers(db, series);
  const brands = new Map<string, { units: number; paisa: number }>();
  for (const sold of series) {
    const brand = brands.get(sold.brand) ?? { units: 0, paisa: 0 };
    brand.units += sold.units;
    brand.paisa += Math.round(sold.revenue * 100);
    brands.set(sold.brand, brand);
  }
  return {
    series,
    brands: [...brands]
      .map(([brand, sold]) => ({ brand, units: sold.units, revenue: sold.paisa / 100 }))
      .sort((a, b) => b.revenue - a.revenue || b.units - a.units || a.brand.localeCompare(b.brand)),
    slowestMovers,
    totals: totalsOf(series),
    previous: totalsOf(before),
  };
}

async function productSales(db: Database, period: ReportPeriod, live: LiveDays): Promise<ProductSales[]> {
  const days = periodRowsOf(PRODUCT_DAYS, period, live);
  const { rows } = await db.raw<{ rows: (ProductSales & { revenue: string | number })[] }>(
    `SELECT sold.product_id AS "productId", sold.name, COALESCE(products.brand, '') AS brand, sold.units, sold.revenue
       FROM (SELECT days.product_id, days.deleted_name, MAX(days.sold_name) AS name,
                    SUM(days.units)::int AS units, SUM(days.revenue) AS revenue
               FROM (${days.sql}) days
              GROUP BY 1, 2
             HAVING SUM(days.sold_lines) > 0) sold
       LEFT JOIN products ON products.id = sold.product_id
      ORDER BY sold.revenue DESC, sold.units DESC, COALESCE(products.name, sold.name), sold.product_id`,
    days.bindings,
  );
  return rows.map((row) => ({ ...row, name: row.name, revenue: Number(row.revenue) }));
}

/**
 * The catalogue's products with the fewest units sold, from the units of the period's series (a
 * product that sold no unit is not in it): the period's rows are added up once per report.
 */
async function slowMovers(db: Database, series: ProductSales[]): Promise<SlowMover[]> {
  const sold = series.filter((product) => product.productId !== null);
  const { rows } = await db.raw<{ rows: SlowMover[] }>(
    `SELECT products.id AS "productId", products.name, products.brand, products.stock,
            COALESCE(sold.units, 0)::int AS units
       FROM products
       LEFT JOIN unnest(CAST(? AS uuid[]), CAST(? AS int[])) AS sold(product_id, units) ON sold.product_id = products.id
      ORDER BY units, products.name, products.id
      LIMIT ${SLOWEST_MOVERS}`,
    [sold.map((product) => product.productId!), sold.map((product) => product.units)],
  );
  return rows;
}

function totalsOf(series: ProductSales[]): ProductsTotals {
  let paisa = 0;
  let units = 0;
  for (const sold of series) {
    paisa += Math.round(sold.revenue * 100);
    units += sold.units;
  }
  return { units, revenue: paisa / 100, productsSold: series.length };
}
