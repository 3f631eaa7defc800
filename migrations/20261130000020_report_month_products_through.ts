import type { Knex } from "knex";

/**
 * Running totals of the products per month (docs/decisions/2026-11-26-report-speed.md, "Running
 * totals by month"): for each month from the first kept one to the last, each product's sums over
 * every month up to and including it (report_month_products added up; the sold name, which does
 * not add up, is left out). A run of whole months is then the totals through its last month less
 * those through the month before it: two rows a product, however many months. Rewritten by the
 * report-rollups job from the first month it writes onwards (server/modules/reports/report-days.ts,
 * monthRows); filled here from the month rows already kept. The indexes by product serve the
 * products report's names, read for the products of its page only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE report_month_products_through (
      month date NOT NULL,
      product_id uuid,
      deleted_name text,
      lines integer NOT NULL,
      delivered integer NOT NULL,
      returned integer NOT NULL,
      cancelled integer NOT NULL,
      open integer NOT NULL,
      sold_lines integer NOT NULL,
      units integer NOT NULL,
      revenue numeric NOT NULL
    );
    CREATE INDEX report_month_products_through_month_idx ON report_month_products_through (month);
    CREATE INDEX report_month_products_product_idx ON report_month_products (product_id, month);
    CREATE INDEX report_day_products_product_idx ON report_day_products (product_id, day);
  `);
  // The job's statement of the time (report-days.ts, monthRows), from the first kept month.
  await knex.raw(`
  INSERT INTO report_month_products_through
  SELECT months.month::date, kept.product_id, kept.deleted_name, SUM(kept.lines)::int, SUM(kept.delivered)::int,
         SUM(kept.returned)::int, SUM(kept.cancelled)::int, SUM(kept.open)::int, SUM(kept.sold_lines)::int,
         SUM(kept.units)::int, SUM(kept.revenue)
    FROM generate_series(
           (SELECT MIN(month) FROM report_month_products),
           (SELECT MAX(month) FROM report_month_products), interval '1 month') AS months(month)
    JOIN report_month_products kept ON kept.month <= months.month
   GROUP BY months.month, kept.product_id, kept.deleted_name`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE report_month_products_through;
    DROP INDEX report_month_products_product_idx;
    DROP INDEX report_day_products_product_idx;
  `);
}
