import type { Database } from "../../db/database";
import { STORE_TIME_ZONE } from "../shared/store-dates.shared";
import { DAY_TABLES, monthRows } from "./report-days";

/**
 * The report-rollups job (server/jobs/job-tasks.ts; docs/decisions/2026-11-26-report-speed.md):
 * keeps each closed day's rows of the report tables (report-days.ts). A day is rolled up once it
 * has closed, and again whenever a change to one of its orders marked it (migration
 * 20261127000010's triggers); the first run after the migration rolls up the whole history.
 */
export type RollUpResult = { days: number };

/**
 * A day is rolled up only this long after it closed: an order's transaction that started on the
 * day (its trigger did not mark the day, which was still today) has committed by then.
 */
export const ROLL_UP_GRACE_MS = 60 * 60 * 1000;

/** Days written per transaction: the history is rolled up in steps, never holding a long lock. */
const DAYS_PER_TRANSACTION = 31;

/** The advisory lock of the job: two app servers never write the same days at once. */
const ROLL_UP_LOCK = 20261127010;

export async function rollUpReportDays(db: Database, now: Date): Promise<RollUpResult> {
  const lastClosed = new Date(now.getTime() - ROLL_UP_GRACE_MS);
  const { rows } = await db.raw<{ rows: { day: string }[] }>(
    `WITH closed AS (SELECT (CAST(? AS timestamptz) AT TIME ZONE '${STORE_TIME_ZONE}')::date - 1 AS last),
          first AS (SELECT (min(created_at) AT TIME ZONE '${STORE_TIME_ZONE}')::date AS day FROM orders)
     SELECT to_char(listed.day, 'YYYY-MM-DD') AS day
       FROM closed, first, generate_series(first.day, closed.last, interval '1 day') AS listed(day)
      WHERE NOT EXISTS (SELECT FROM report_rolled_days rolled WHERE rolled.day = listed.day::date)
     UNION
     SELECT to_char(dirty.day, 'YYYY-MM-DD') FROM report_dirty_days dirty, closed WHERE dirty.day <= closed.last
     ORDER BY 1`,
    [lastClosed],
  );
  const days = rows.map((row) => row.day);
  let rolled = 0;
  let marksRemoved = 0;
  for (let start = 0; start < days.length; start += DAYS_PER_TRANSACTION) {
    const batch = days.slice(start, start + DAYS_PER_TRANSACTION);
    const removed = await db.transaction((trx) => rollUp(trx, batch));
    if (removed === null) break;
    rolled += batch.length;
    marksRemoved += removed;
  }
  // Every report reads the marks (liveDaysBetween). Marks removed stay in the table's index until
  // a vacuum: after a bulk change to past orders (the bench's seed marked 341,000), every report
  // read them all, 60 ms, until autovacuum came by minutes later. The table is small once cleared.
  if (marksRemoved > 0) await db.raw("VACUUM (SKIP_LOCKED) report_dirty_days");
  return { days: rolled };
}

/**
 * Writes the days' rows afresh (and their months' where a table is kept per month too); answers
 * the number of marks removed, or null when another server holds the lock (it is doing the work).
 * The marks read first are the ones removed at the end: a change committed meanwhile left a mark
 * this run did not read, so its day is rolled up again by the next run.
 */
async function rollUp(trx: Database, days: string[]): Promise<number | null> {
  const { rows: lock } = await trx.raw<{ rows: { locked: boolean }[] }>(
    "SELECT pg_try_advisory_xact_lock(?) AS locked",
    [ROLL_UP_LOCK],
  );
  if (!lock[0]!.locked) return null;
  const { rows: marks } = await trx.raw<{ rows: { id: string }[] }>(
    "SELECT id FROM report_dirty_days WHERE day = ANY(CAST(? AS date[]))",
    [days],
  );
  for (const table of new Set(DAY_TABLES.map((dayTable) => dayTable.table))) {
    await trx.raw(`DELETE FROM ${table} WHERE day = ANY(CAST(? AS date[]))`, [days]);
  }
  for (const dayTable of DAY_TABLES) {
    const daily = dayTable.daily(days);
    await trx.raw(`INSERT INTO ${dayTable.table} (${dayTable.columns.join(", ")}) ${daily.sql}`, daily.bindings);
  }
  const months = [...new Set(days.map((day) => `${day.slice(0, 7)}-01`))];
  for (const dayTable of DAY_TABLES) {
    for (const statement of monthRows(dayTable, months)) await trx.raw(statement.sql, statement.bindings);
  }
  await trx.raw(
    `INSERT INTO report_rolled_days (day) SELECT unnest(CAST(? AS date[]))
     ON CONFLICT (day) DO UPDATE SET rolled_at = now()`,
    [days],
  );
  await trx.raw("DELETE FROM report_dirty_days WHERE id = ANY(CAST(? AS bigint[]))", [marks.map((mark) => mark.id)]);
  return marks.length;
}
