import type { Knex } from "knex";

/**
 * The products per month (docs/decisions/2026-11-26-report-speed.md): report_day_products' rows
 * added up per month in Pakistan, kept beside the days by the report-rollups job
 * (server/modules/reports/report-days.ts, monthRows), which rewrites a month's rows whenever it
 * writes one of its days. A year of days is nearly a row per order line; a year of months at most
 * twelve rows per product. Filled here from the days already kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE report_month_products (
      month date NOT NULL,
      product_id uuid,
      deleted_name text,
      lines integer NOT NULL,
      delivered integer NOT NULL,
      returned integer NOT NULL,
      cancelled integer NOT NULL,
      open integer NOT NULL,
      sold_lines integer NOT NULL,
      sold_name text,
      units integer NOT NULL,
      revenue numeric NOT NULL
    );
    CREATE INDEX report_month_products_month_idx ON report_month_products (month);

    INSERT INTO report_month_products
    SELECT date_trunc('month', day)::date, product_id, deleted_name, SUM(lines)::int, SUM(delivered)::int,
           SUM(returned)::int, SUM(cancelled)::int, SUM(open)::int, SUM(sold_lines)::int, MAX(sold_name),
           SUM(units)::int, SUM(revenue)
      FROM report_day_products
     GROUP BY 1, 2, 3;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE report_month_products");
}
