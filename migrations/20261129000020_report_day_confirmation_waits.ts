import type { Knex } from "knex";

/**
 * Each kept day's confirmed waits (docs/decisions/2026-11-26-report-speed.md, "The median time to
 * confirm"): the seconds from order to confirmation of the day's orders asked and confirmed, as
 * the confirmation report's median takes them (server/modules/reports/report-days.ts,
 * CONFIRMATION_WAIT_DAYS). A median is not a sum of days, but the median of a period's waits is
 * the median of its days' waits put together: a year reads 365 rows rather than every confirmed
 * order. Filled here for the days already rolled up, by the same expression as the job's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE report_day_confirmation_waits (
      day date PRIMARY KEY,
      waits double precision[] NOT NULL
    );

    INSERT INTO report_day_confirmation_waits (day, waits)
    SELECT placed.day, array_agg(date_part('epoch', orders.confirmation_at - orders.created_at))
      FROM orders
      JOIN LATERAL (SELECT (orders.created_at AT TIME ZONE 'Asia/Karachi')::date AS day) AS placed ON true
     WHERE orders.confirmation_status = 'confirmed' AND orders.phone IS NOT NULL
       AND placed.day IN (SELECT day FROM report_rolled_days)
     GROUP BY 1;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE report_day_confirmation_waits");
}
