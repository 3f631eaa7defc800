import type { Database } from "../../db/database";
import type { ReportPeriod } from "./report-period.shared";
import { addDays } from "./report-period.shared";
import { dayNumber, nextMonth, runsOfNumbers } from "./report-day-numbers";
import { monthlyColumnKinds, type DayRows, type DayTable } from "./report-days";

/**
 * How a report reads the kept tables over a period (docs/decisions/2026-11-26-report-speed.md): the
 * kept rows of the days (and months) that are rolled up and clean, the live days computed by the
 * tables' own statements (report-days.ts), and, for the readers of sums only, months less some of
 * their days and runs of months as running totals.
 */
/** The days of a report's periods that are computed live: not rolled up, or marked since. */
export type LiveDays = readonly string[];

/** The days from `from` to `to` (YYYY-MM-DD, both included) whose kept rows may not be used. */
export async function liveDaysBetween(db: Database, from: string, to: string): Promise<LiveDays> {
  const { rows } = await db.raw<{ rows: { day: string }[] }>(
    `SELECT to_char(listed.day, 'YYYY-MM-DD') AS day
       FROM generate_series(CAST(? AS date), CAST(? AS date), interval '1 day') AS listed(day)
      WHERE NOT EXISTS (SELECT FROM report_rolled_days rolled WHERE rolled.day = listed.day::date)
         OR EXISTS (SELECT FROM report_dirty_days dirty WHERE dirty.day = listed.day::date)`,
    [from, to],
  );
  return rows.map((row) => row.day);
}

/**
 * A table's day rows for a period, as a statement to use as a subquery (its columns are the
 * table's): the kept rows of the clean days, and the live days computed.
 */
export function dayRowsOf(table: DayTable, period: ReportPeriod, live: LiveDays): DayRows {
  return rowsOf(table, period, live, { byDay: true });
}

/**
 * The first days of the months wholly inside the period with no live day: their kept month rows
 * (the sums of their kept day rows, rewritten with them by the job, monthRows) are the months'.
 */
export function keptMonthsOf(period: ReportPeriod, live: LiveDays): string[] {
  const months: string[] = [];
  for (let first = `${period.from.slice(0, 7)}-01`; first <= period.to; first = nextMonth(first)) {
    const last = addDays(nextMonth(first), -1);
    if (first >= period.from && last <= period.to && !live.some((day) => day >= first && day <= last)) {
      months.push(first);
    }
  }
  return months;
}

/**
 * A table's rows over a period, for a report that adds them up whatever their day (its columns
 * are the table's but the day): as dayRowsOf, but for a table kept per month too, the kept month
 * rows of the months wholly inside the period with no live day stand for their days.
 */
export function periodRowsOf(table: DayTable, period: ReportPeriod, live: LiveDays): DayRows {
  return rowsOf(table, period, live, { byDay: false });
}

/**
 * Each kept part is read by ranges of its index (the runs of kept days), rather than by the
 * period's range less a list of live days: for a year before the first order, a list of 365 days
 * took PostgreSQL 5 to 9 ms to plan per statement.
 */
function rowsOf(table: DayTable, period: ReportPeriod, live: LiveDays, { byDay }: { byDay: boolean }): DayRows {
  const columns = byDay ? table.columns : table.columns.filter((column) => column !== "day");
  const liveInPeriod = live.filter((day) => day >= period.from && day <= period.to);
  const months = table.monthly && !byDay ? keptMonthsOf(period, liveInPeriod) : [];
  const skipped = new Set(liveInPeriod.map(dayNumber));
  for (const first of months) {
    for (let day = dayNumber(first), end = dayNumber(nextMonth(first)); day < end; day++) skipped.add(day);
  }
  const keptDays: number[] = [];
  for (let day = dayNumber(period.from), last = dayNumber(period.to); day <= last; day++) {
    if (!skipped.has(day)) keptDays.push(day);
  }
  const keptRuns = runsOfNumbers(keptDays);
  const daily = table.daily(liveInPeriod);
  const dimension = table.dimension ? ` AND dimension = '${table.dimension}'` : "";
  const monthRows =
    table.monthly && months.length > 0
      ? `SELECT ${columns.join(", ")} FROM ${table.monthly.table} WHERE month = ANY(CAST(? AS date[]))
         UNION ALL `
      : "";
  const keptRanges = keptRuns.map(() => "day BETWEEN CAST(? AS date) AND CAST(? AS date)").join(" OR ") || "false";
  return {
    sql: `${monthRows}SELECT ${columns.join(", ")} FROM ${table.table} WHERE (${keptRanges})${dimension}
          UNION ALL
          SELECT ${columns.join(", ")} FROM (${daily.sql}) AS live(${table.columns.join(", ")})`,
    bindings: [...(monthRows ? [months] : []), ...keptRuns.flat(), ...daily.bindings],
  };
}

/**
 * A table's rows over a period for a report that reads only their sums (grouped by the month
 * rows' `groupBy`, never a non-additive column such as the sold name, which is NULL in some rows
 * here): as periodRowsOf, but a month the period covers only in part, or with live days, may be
 * read as its month row less the kept rows of its days that are outside the period or live (their
 * sums negated), when that reads fewer days than the month's days in the period. Exact because a
 * month row is the sum of its month's kept day rows, whatever they are (the job rewrites both in
 * one transaction, monthRows); the live days are computed as everywhere else. A group whose sums
 * cancel out reads as a row of zeros: readers keep only groups with something in the period.
 */
export function additiveRowsOf(table: DayTable, period: ReportPeriod, live: LiveDays): DayRows {
  const monthly = table.monthly;
  if (!monthly) return periodRowsOf(table, period, live);
  const columns = table.columns.filter((column) => column !== "day");
  const kinds = monthlyColumnKinds(table);
  // What subtracting reads: the groups as they are, the sums negated, nothing for the rest.
  const negated = kinds.map(({ column, kind }) => (kind === "group" ? column : kind === "sum" ? `-${column}` : "NULL"));
  // What the running totals keep: the groups and the sums.
  const throughColumns = kinds.map(({ column, kind }) => (kind === "other" ? "NULL" : column));
  const liveInPeriod = live.filter((day) => day >= period.from && day <= period.to);
  const liveNumbers = new Set(liveInPeriod.map(dayNumber));
  const from = dayNumber(period.from);
  const to = dayNumber(period.to);
  const wholeMonths: string[] = [];
  const lessMonths: string[] = [];
  const keptDays: number[] = [];
  const lessDays: number[] = [];
  for (let first = `${period.from.slice(0, 7)}-01`; first <= period.to; first = nextMonth(first)) {
    const start = dayNumber(first);
    const end = dayNumber(nextMonth(first)) - 1;
    const inPeriod: number[] = [];
    const outside: number[] = [];
    for (let day = start; day <= end; day++) {
      if (day < from || day > to || liveNumbers.has(day)) outside.push(day);
      else inPeriod.push(day);
    }
    if (outside.length === 0) wholeMonths.push(first);
    // A month row stands for about six days of rows (a day sells a sixth of the products a month does).
    else if (outside.length + 6 < inPeriod.length) {
      lessMonths.push(first);
      lessDays.push(...outside);
    } else keptDays.push(...inPeriod);
  }
  const ranges = (runs: [string, string][]) =>
    runs.map(() => "day BETWEEN CAST(? AS date) AND CAST(? AS date)").join(" OR ") || "false";
  const keptRuns = runsOfNumbers(keptDays);
  const lessRuns = runsOfNumbers(lessDays);
  // Consecutive months read by month: a run of two or more is the running totals through its last
  // month less those through the month before its first, where the table keeps them.
  const monthRuns = runsOfMonths([...wholeMonths, ...lessMonths].sort());
  const singles = monthly.through ? monthRuns.filter((run) => run.length === 1).flat() : monthRuns.flat();
  const throughRuns = monthly.through ? monthRuns.filter((run) => run.length > 1) : [];
  const throughSql = throughRuns
    .map(
      () => `SELECT ${throughColumns.join(", ")} FROM ${monthly.through} WHERE month =
               (SELECT MAX(month) FROM ${monthly.through} WHERE month <= CAST(? AS date))
             UNION ALL
             SELECT ${negated.join(", ")} FROM ${monthly.through} WHERE month =
               (SELECT MAX(month) FROM ${monthly.through} WHERE month < CAST(? AS date))
             UNION ALL `,
    )
    .join("");
  const daily = table.daily(liveInPeriod);
  return {
    sql: `${throughSql}SELECT ${columns.join(", ")} FROM ${monthly.table} WHERE month = ANY(CAST(? AS date[]))
          UNION ALL
          SELECT ${columns.join(", ")} FROM ${table.table} WHERE ${ranges(keptRuns)}
          UNION ALL
          SELECT ${negated.join(", ")} FROM ${table.table} WHERE ${ranges(lessRuns)}
          UNION ALL
          SELECT ${columns.join(", ")} FROM (${daily.sql}) AS live(${table.columns.join(", ")})`,
    bindings: [
      ...throughRuns.flatMap((run) => [run[run.length - 1]!, run[0]!]),
      singles,
      ...keptRuns.flat(),
      ...lessRuns.flat(),
      ...daily.bindings,
    ],
  };
}

/** Months (first days, in order) as runs of consecutive months. */
function runsOfMonths(months: readonly string[]): string[][] {
  const runs: string[][] = [];
  for (const month of months) {
    const last = runs[runs.length - 1];
    if (last && nextMonth(last[last.length - 1]!) === month) last.push(month);
    else runs.push([month]);
  }
  return runs;
}
