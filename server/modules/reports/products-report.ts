import type { Database } from "../../db/database";
import type { ReportPeriod } from "./report-period.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { PRODUCT_DAYS } from "./report-days";
import { additiveRowsOf, periodRowsOf, type LiveDays } from "./period-rows";
import { pageBindings, type ListPage } from "./report-sql";

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
  /** A page of the products sold, best sellers first (by revenue, then units, then name). */
  series: ProductSales[];
  /** Where that page sits among every product sold (`total` is `totals.productsSold`). */
  pagination: Pagination;
  brands: BrandSales[];
  slowestMovers: SlowMover[];
  totals: ProductsTotals;
  previous: ProductsTotals;
};

/** The slowest movers listed: those with the fewest units sold. */
export const SLOWEST_MOVERS = 10;

/** The products sold as the report lists them; ties by today's name (a deleted product's sold one). */
const BEST_SELLERS_FIRST = "ORDER BY revenue DESC, units DESC, sort_name, product_id";
/** The catalogue's products by the units they sold in the period (none: 0). */
const FEWEST_FIRST = "ORDER BY units, name, id";

/**
 * One statement (docs/decisions/2026-11-26-report-speed.md): the period's sums are added up per
 * product once, in a materialized CTE, and the totals, the brands, the page of best sellers and
 * the slowest movers are all taken from it; the period before is added up to its totals only.
 * Both read sums only (additiveRowsOf: a run of whole months is two rows a product); the name
 * each product sold under in the period, which does not add up, is read for the page's products
 * alone. Today's product names and brands are joined to the products sold (a few hundred to a
 * couple of thousand rows), never to the day rows.
 */
export async function productsReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  live: LiveDays,
  list: ListPage,
): Promise<ProductsReport> {
  // The sums of the period and the period before: a run of whole months is two rows a product
  // (additiveRowsOf). The sold name does not add up: it is read for the page's products only.
  const days = additiveRowsOf(PRODUCT_DAYS, period, live);
  const names = periodRowsOf(PRODUCT_DAYS, period, live);
  // The period before is added up to its totals only: sums, which a month row less some of its days gives.
  const daysBefore = additiveRowsOf(PRODUCT_DAYS, previous, live);
  const { rows } = await db.raw<{ rows: [ProductsFigures] }>(
    `WITH sold AS MATERIALIZED (
            SELECT days.product_id, days.deleted_name,
                   SUM(days.units)::int AS units, SUM(days.revenue) AS revenue
              FROM (${days.sql}) days
             GROUP BY 1, 2
            HAVING SUM(days.sold_lines) > 0),
          named AS MATERIALIZED (
            SELECT sold.product_id, sold.deleted_name, COALESCE(products.brand, '') AS brand, sold.units, sold.revenue,
                   COALESCE(products.name, sold.deleted_name) AS sort_name
              FROM sold LEFT JOIN products ON products.id = sold.product_id),
          sold_before AS (
            SELECT SUM(days.units) AS units, SUM(days.revenue) AS revenue
              FROM (${daysBefore.sql}) days
             GROUP BY days.product_id, days.deleted_name
            HAVING SUM(days.sold_lines) > 0),
          page AS MATERIALIZED (SELECT * FROM named ${BEST_SELLERS_FIRST} LIMIT ? OFFSET ?),
          -- One pass over the period's rows of the page's products (the condition reaches each
          -- part of the rows, the live days' order lines included, as an index condition).
          sold_names AS (
            SELECT named_days.product_id, MAX(named_days.sold_name) AS name
              FROM (${names.sql}) named_days
             WHERE named_days.product_id = ANY(ARRAY(SELECT product_id FROM page WHERE product_id IS NOT NULL))
             GROUP BY 1)
     SELECT (SELECT json_build_object('units', COALESCE(SUM(units), 0), 'revenue', COALESCE(SUM(revenue), 0),
                                      'productsSold', COUNT(*)) FROM sold) AS totals,
            (SELECT json_build_object('units', COALESCE(SUM(units), 0), 'revenue', COALESCE(SUM(revenue), 0),
                                      'productsSold', COUNT(*)) FROM sold_before) AS previous,
            (SELECT COALESCE(json_agg(json_build_object('brand', brand, 'units', units, 'revenue', revenue)), '[]')
               FROM (SELECT brand, SUM(units) AS units, SUM(revenue) AS revenue FROM named GROUP BY brand) brands) AS brands,
            (SELECT COALESCE(json_agg(json_build_object('productId', product_id, 'name', name, 'brand', brand,
                                                        'units', units, 'revenue', revenue) ${BEST_SELLERS_FIRST}), '[]')
               FROM (SELECT page.*, COALESCE(page.deleted_name, sold_names.name) AS name
                       FROM page LEFT JOIN sold_names ON sold_names.product_id = page.product_id) page) AS series,
            (SELECT COALESCE(json_agg(json_build_object('productId', id, 'name', name, 'brand', brand, 'stock', stock,
                                                        'units', units) ${FEWEST_FIRST}), '[]')
               FROM (SELECT products.id, products.name, products.brand, products.stock, COALESCE(sold.units, 0) AS units
                       FROM products LEFT JOIN sold ON sold.product_id = products.id
                       ${FEWEST_FIRST}
                      LIMIT ${SLOWEST_MOVERS}) slowest) AS "slowestMovers"`,
    [...days.bindings, ...daysBefore.bindings, ...pageBindings(list), ...names.bindings],
  );
  const figures = rows[0];
  const shown = list ?? { page: 1, limit: Math.max(1, figures.totals.productsSold) };
  return {
    series: figures.series,
    pagination: paginationOf(shown.page, shown.limit, figures.totals.productsSold),
    brands: figures.brands.sort((a, b) => b.revenue - a.revenue || b.units - a.units || a.brand.localeCompare(b.brand)),
    slowestMovers: figures.slowestMovers,
    totals: figures.totals,
    previous: figures.previous,
  };
}

type ProductsFigures = {
  totals: ProductsTotals;
  previous: ProductsTotals;
  brands: BrandSales[];
  series: ProductSales[];
  slowestMovers: SlowMover[];
};
