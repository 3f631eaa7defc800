import type { Knex } from "knex";

/**
 * The days each kept month row sums (docs/decisions/2026-11-26-report-speed.md, "The month a
 * period ends in"): for each table kept per month (report_month_products), the days of the month
 * whose day rows its month rows added up, rewritten by the report-rollups job with the month rows
 * (server/modules/reports/report-days.ts, monthRows). A report reads the month its period ends in
 * from the month rows only when all these days lie in the period and none is live. Filled here
 * from the days already kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE report_month_days (
      month_table text NOT NULL,
      month date NOT NULL,
      days date[] NOT NULL,
      PRIMARY KEY (month_table, month)
    );

    INSERT INTO report_month_days (month_table, month, days)
    SELECT 'report_month_products', date_trunc('month', day)::date, array_agg(DISTINCT day ORDER BY day)
      FROM report_day_products
     GROUP BY 2;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE report_month_days");
}
