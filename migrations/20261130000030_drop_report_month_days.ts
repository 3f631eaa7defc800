import type { Knex } from "knex";

/**
 * The days each kept month row summed (report_month_days, migration 20261130000010) are no longer
 * read: a month a period covers in part is read as its month row less the days left out, which
 * needs no record of them (docs/decisions/2026-11-26-report-speed.md, "One way to read part of a
 * month"). The month rows themselves stay.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE report_month_days");
}

/** Recreated as migration 20261130000010 left it, from the days kept. */
export async function down(knex: Knex): Promise<void> {
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
