import type { Database } from "../../db/database";
import type { ReportPeriod } from "./report-period.shared";
import { periodBindings, placedIn } from "./report-sql";

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

const SOLD_LINES = `
  FROM order_items JOIN orders ON orders.id = order_items.order_id
 WHERE orders.status <> 'Cancelled' AND ${placedIn("orders.created_at")}`;

export async function productsReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
): Promise<ProductsReport> {
  const [series, before, slowestMovers] = await Promise.all([
    productSales(db, period),
    productSales(db, previous),
    slowMovers(db, period),
  ]);
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

async function productSales(db: Database, period: ReportPeriod): Promise<ProductSales[]> {
  const { rows } = await db.raw<{ rows: (ProductSales & { revenue: string | number })[] }>(
    `SELECT sold.product_id AS "productId", sold.name, COALESCE(products.brand, '') AS brand, sold.units, sold.revenue
       FROM (SELECT order_items.product_id,
                    CASE WHEN order_items.product_id IS NULL THEN order_items.product_name END AS deleted_name,
                    MAX(order_items.product_name) AS name,
                    SUM(order_items.quantity)::int AS units,
                    SUM(order_items.quantity * order_items.unit_price) AS revenue
              ${SOLD_LINES}
              GROUP BY 1, 2) sold
       LEFT JOIN products ON products.id = sold.product_id
      ORDER BY sold.revenue DESC, sold.units DESC, COALESCE(products.name, sold.name), sold.product_id`,
    periodBindings(period),
  );
  return rows.map((row) => ({ ...row, name: row.name, revenue: Number(row.revenue) }));
}

async function slowMovers(db: Database, period: ReportPeriod): Promise<SlowMover[]> {
  const { rows } = await db.raw<{ rows: SlowMover[] }>(
    `SELECT products.id AS "productId", products.name, products.brand, products.stock,
            COALESCE(sold.units, 0)::int AS units
       FROM products
       LEFT JOIN (SELECT order_items.product_id, SUM(order_items.quantity) AS units
                  ${SOLD_LINES} AND order_items.product_id IS NOT NULL
                  GROUP BY 1) sold ON sold.product_id = products.id
      ORDER BY units, products.name, products.id
      LIMIT ${SLOWEST_MOVERS}`,
    periodBindings(period),
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
