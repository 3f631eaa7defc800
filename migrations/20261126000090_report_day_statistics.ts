import type { Knex } from "knex";

/**
 * Statistics on the day, week and month in Pakistan of each order's creation: the expressions the
 * reports group by (server/modules/reports/report-sql.ts, bucketOf). Without them PostgreSQL
 * guesses one group per order, sorts a year's orders to group them (spilling to disk past
 * work_mem) where a hash of a few hundred days is enough: the year's sales series went from
 * 1.6 s to 0.43 s on the bench's 100,000 orders (docs/decisions/2026-11-26-report-speed.md).
 * The expressions are written out here as they were when this ran.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE STATISTICS orders_karachi_periods_stats ON
      (date_trunc('day', created_at AT TIME ZONE 'Asia/Karachi')::date),
      (date_trunc('week', created_at AT TIME ZONE 'Asia/Karachi')::date),
      (date_trunc('month', created_at AT TIME ZONE 'Asia/Karachi')::date)
    FROM orders`);
  await knex.raw("ANALYZE orders");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP STATISTICS orders_karachi_periods_stats");
}
