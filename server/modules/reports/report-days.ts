import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { STORE_TIME_ZONE } from "../shared/store-dates.shared";
import { addDays, type ReportPeriod } from "./report-period.shared";
import { MONEY_COLUMNS, ORDER_REFUNDS_PAID, PAID_ON_DELIVERY, placedIn } from "./report-sql";

/**
 * The reports' figures per day in Pakistan (docs/decisions/2026-11-26-report-speed.md): each
 * table's rows for a set of days, computed from the orders by one SQL statement here. The
 * report-rollups job keeps that statement's rows for closed days (migration
 * 20261127000010); a report reads the kept rows of the days that are rolled up and clean, and
 * runs the same statement for the others (today, a day an order's change marked, a day not yet
 * rolled up). One statement for both is what makes the figures from kept rows those computed live.
 */
/** A statement and its bindings, to run or to use as a subquery. */
export type DayRows = { sql: string; bindings: Knex.RawBinding[] };

export type DayTable = {
  table: string;
  /** The table's columns, in the order `daily` selects them. */
  columns: readonly string[];
  /** The rows of one dimension, for a table that keeps several. */
  dimension?: string;
  /** The rows of the given days (YYYY-MM-DD), computed from the orders. */
  daily: (days: readonly string[]) => DayRows;
  /** The same rows added up per month, kept beside the days (periodRowsOf, monthRows). */
  monthly?: {
    table: string;
    /** Each column but the day's, in `columns`' order, over the kept day rows of a month grouped by `groupBy`. */
    sums: readonly string[];
    groupBy: readonly string[];
    /**
     * The running totals by month (every month row up to and including each month; the sums only,
     * not what does not add up): a run of months is two of them (additiveRowsOf).
     */
    through?: string;
  };
};

/**
 * A day (YYYY-MM-DD) as a number of days since 1970, and back: the kept and live days of a year
 * and the year before are walked day by day for every table a report reads, and addDays (a
 * date's parse, its check and its text again, about 5 microseconds) made that walk most of a
 * year's payments report's time in the store's process (docs/decisions/2026-11-26-report-speed.md).
 */
const DAY_MS = 86_400_000;
const dayNumber = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
const dayText = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);

/** Day numbers (in any order, repeats allowed) as runs of consecutive days, each [first, last]. */
function runsOfNumbers(numbers: number[]): [string, string][] {
  const runs: [number, number][] = [];
  for (const number of numbers.sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && number === last[1] + 1) last[1] = number;
    else if (!last || number > last[1]) runs.push([number, number]);
  }
  return runs.map(([first, last]) => [dayText(first), dayText(last)]);
}

/** The days (YYYY-MM-DD, in any order) as runs of consecutive days, each [first, last]. */
export function runsOfDays(days: readonly string[]): [string, string][] {
  return runsOfNumbers(days.map(dayNumber));
}

/**
 * A table's rows whose moment column falls on one of the days, each with its day in Pakistan as
 * `wanted.day`. The days are given as runs of consecutive days, each a range of the column's
 * index with its bounds as parameters: PostgreSQL then estimates each range from the column's
 * statistics. (A join to a list of days, one range per day, left it guessing a ninth of the table
 * per day: for a year of days with no orders it hashed every order line, and for the payments
 * report's year before it read the discounted orders once per day, 2 s in all.)
 */
function onDays(table: string, column: string, days: readonly string[]): DayRows {
  const runs = runsOfDays(days);
  const within = runs.length === 0 ? "false" : runs.map(() => `(${placedIn(column)})`).join(" OR ");
  return {
    sql: `${table} JOIN LATERAL (SELECT (${column} AT TIME ZONE '${STORE_TIME_ZONE}')::date AS day) AS wanted
      ON ${within}`,
    bindings: runs.flat(),
  };
}

/** One order (or order line), one outcome: the four counts add up to the first. */
export const OUTCOME_COLUMNS = `
  COUNT(*)::int AS orders,
  (COUNT(*) FILTER (WHERE orders.status = 'Delivered'))::int AS delivered,
  (COUNT(*) FILTER (WHERE orders.outcome_kind = 'returned'))::int AS returned,
  (COUNT(*) FILTER (WHERE orders.status = 'Cancelled' AND orders.outcome_kind IS NULL))::int AS cancelled,
  (COUNT(*) FILTER (WHERE orders.status IN ('Pending', 'Shipped')))::int AS open`;

/** An order without a courier yet (or cancelled before it had one). */
export const NOT_BOOKED = "Not booked";

/** Cities as customers type them: one group whatever the case and spaces. */
const CITY = "initcap(btrim(orders.city))";

const CONFIRMED = "orders.confirmation_status = 'confirmed'";
const CANCELLED_BY_CUSTOMER = `orders.confirmation_status = 'cancelled'
  OR (orders.confirmation_status = 'pending' AND orders.status = 'Cancelled' AND orders.cancelled_by_customer)`;
const NOT_CANCELLED = "orders.status <> 'Cancelled'";

/** Orders and their money (report-sql.ts, MONEY_COLUMNS) per payment method: the sales and payments reports. */
export const MONEY_DAYS: DayTable = {
  table: "report_day_money",
  columns: [
    "day",
    "payment_method",
    "orders",
    "cancelled_orders",
    "collected_amount",
    "refunded_amount",
    "to_collect_amount",
    "cancelled_amount",
  ],
  daily: (days) => {
    const placed = onDays("orders", "orders.created_at", days);
    return {
      sql: `SELECT wanted.day, orders.payment_method,
                   (COUNT(*) FILTER (WHERE ${NOT_CANCELLED}))::int, (COUNT(*) FILTER (WHERE orders.status = 'Cancelled'))::int,
                   ${MONEY_COLUMNS}
              FROM ${placed.sql}
              LEFT JOIN LATERAL (${ORDER_REFUNDS_PAID}) refunds ON true
             GROUP BY 1, 2`,
      bindings: [PAID_ON_DELIVERY, ...placed.bindings],
    };
  },
};

const OUTCOME_TABLE_COLUMNS = ["day", "dimension", "name", "orders", "delivered", "returned", "cancelled", "open"];

function outcomesBy(dimension: string, group: string): DayTable {
  return {
    table: "report_day_outcomes",
    columns: OUTCOME_TABLE_COLUMNS,
    dimension,
    daily: (days) => {
      const placed = onDays("orders", "orders.created_at", days);
      return {
        sql: `SELECT wanted.day, '${dimension}', ${group}, ${OUTCOME_COLUMNS}
                FROM ${placed.sql}
               GROUP BY 1, 2, 3`,
        bindings: placed.bindings,
      };
    },
  };
}

/** Orders' outcomes per city: the deliveries report (its series and totals add the cities up). */
export const CITY_DAYS = outcomesBy("city", CITY);

/** Orders' outcomes per courier: the deliveries report. */
export const COURIER_DAYS = outcomesBy("courier", `COALESCE(orders.courier, '${NOT_BOOKED}')`);

/**
 * Order lines per product (a deleted product by its sold name): their outcomes (the deliveries
 * report counts lines) and, of orders not cancelled, the lines, the last name sold, units and
 * revenue (the products report). The product's name today is joined when a report reads them.
 */
export const PRODUCT_DAYS: DayTable = {
  table: "report_day_products",
  columns: [
    "day",
    "product_id",
    "deleted_name",
    "lines",
    "delivered",
    "returned",
    "cancelled",
    "open",
    "sold_lines",
    "sold_name",
    "units",
    "revenue",
  ],
  daily: (days) => {
    const placed = onDays("orders", "orders.created_at", days);
    return {
      sql: `SELECT wanted.day, order_items.product_id,
                 CASE WHEN order_items.product_id IS NULL THEN order_items.product_name END,
                 ${OUTCOME_COLUMNS},
                 (COUNT(*) FILTER (WHERE ${NOT_CANCELLED}))::int,
                 MAX(order_items.product_name) FILTER (WHERE ${NOT_CANCELLED}),
                 COALESCE(SUM(order_items.quantity) FILTER (WHERE ${NOT_CANCELLED}), 0)::int,
                 COALESCE(SUM(order_items.quantity * order_items.unit_price) FILTER (WHERE ${NOT_CANCELLED}), 0)
            FROM ${placed.sql}
            JOIN order_items ON order_items.order_id = orders.id
           GROUP BY 1, 2, 3`,
      bindings: placed.bindings,
    };
  },
  // A year of products per day is nearly a row per order line (the bench's 2,000 watches sell
  // about 330 different ones a day): a month's rows are at most one per product.
  monthly: {
    table: "report_month_products",
    sums: [
      "product_id",
      "deleted_name",
      "SUM(lines)::int",
      "SUM(delivered)::int",
      "SUM(returned)::int",
      "SUM(cancelled)::int",
      "SUM(open)::int",
      "SUM(sold_lines)::int",
      "MAX(sold_name)",
      "SUM(units)::int",
      "SUM(revenue)",
    ],
    groupBy: ["product_id", "deleted_name"],
    through: "report_month_products_through",
  },
};

/**
 * Orders asked to confirm (with a mobile number) per confirmation channel, and their answers:
 * the confirmation report. Its median time to confirm is not a sum of days: its days' waits are
 * kept apart (CONFIRMATION_WAIT_DAYS).
 */
export const CONFIRMATION_DAYS: DayTable = {
  table: "report_day_confirmations",
  columns: ["day", "channel", "asked", "confirmed", "cancelled_by_customer"],
  daily: (days) => {
    const placed = onDays("orders", "orders.created_at", days);
    return {
      sql: `SELECT wanted.day, orders.confirmation_channel, COUNT(*)::int,
                   (COUNT(*) FILTER (WHERE ${CONFIRMED}))::int, (COUNT(*) FILTER (WHERE ${CANCELLED_BY_CUSTOMER}))::int
              FROM ${placed.sql}
             WHERE orders.phone IS NOT NULL
             GROUP BY 1, 2`,
      bindings: placed.bindings,
    };
  },
};

/**
 * The seconds each order asked and confirmed waited for its confirmation, one row per day: the
 * confirmation report's median time to confirm, the median of its period's waits put together.
 * date_part's double precision, as percentile_cont sorts them: EXTRACT gives a numeric, which
 * percentile_cont converted to double precision through its text (both are the same double for any
 * wait under a day; beyond, at most one unit in the last place).
 */
export const CONFIRMATION_WAIT_DAYS: DayTable = {
  table: "report_day_confirmation_waits",
  columns: ["day", "waits"],
  daily: (days) => {
    const placed = onDays("orders", "orders.created_at", days);
    return {
      sql: `SELECT wanted.day, array_agg(date_part('epoch', orders.confirmation_at - orders.created_at))
              FROM ${placed.sql}
             WHERE ${CONFIRMED} AND orders.phone IS NOT NULL
             GROUP BY 1`,
      bindings: placed.bindings,
    };
  },
};

/** Each discount code's uses on orders not cancelled, and the amount it took off: the payments report. */
export const DISCOUNT_DAYS: DayTable = {
  table: "report_day_discounts",
  columns: ["day", "code", "uses", "amount_given"],
  daily: (days) => {
    const placed = onDays("orders", "orders.created_at", days);
    return {
      sql: `SELECT wanted.day, orders.discount_code, COUNT(*)::int, COALESCE(SUM(orders.discount_amount), 0)
              FROM ${placed.sql}
             WHERE orders.discount_code IS NOT NULL AND ${NOT_CANCELLED}
             GROUP BY 1, 2`,
      bindings: placed.bindings,
    };
  },
};

/** Returns asked for on the day (their own day, not their order's) per reason, and the refunds paid: the payments report. */
export const RETURN_DAYS: DayTable = {
  table: "report_day_returns",
  columns: ["day", "reason", "returns", "received", "refunded"],
  daily: (days) => {
    const placed = onDays("order_returns", "order_returns.created_at", days);
    return {
      sql: `SELECT wanted.day, order_returns.reason, COUNT(*)::int,
                   (COUNT(*) FILTER (WHERE order_returns.status = 'Received'))::int,
                   COALESCE(SUM(order_returns.refund_amount) FILTER (WHERE order_returns.status = 'Received'), 0)
              FROM ${placed.sql}
             GROUP BY 1, 2`,
      bindings: placed.bindings,
    };
  },
};

/** Every kept table's statements, in the order the job writes them. */
export const DAY_TABLES: readonly DayTable[] = [
  MONEY_DAYS,
  CITY_DAYS,
  COURIER_DAYS,
  PRODUCT_DAYS,
  CONFIRMATION_DAYS,
  CONFIRMATION_WAIT_DAYS,
  DISCOUNT_DAYS,
  RETURN_DAYS,
];

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

function nextMonth(first: string): string {
  const [year, month] = first.split("-").map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
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
 *
 * A table kept per month also reads the month that the period ends in, when the period covers its
 * start but not its end (the last 30 days' current month), from its month row rather than its
 * days, provided every day that month row summed lies in the period and is not live: the job
 * records those days beside the month rows (report_month_days, migration 20261130000010). Whether
 * they do is known only to the database, so the statement asks it: the month row is read when
 * they do, the month's kept days when they do not (`tailMonth` below), never both.
 */
function rowsOf(table: DayTable, period: ReportPeriod, live: LiveDays, { byDay }: { byDay: boolean }): DayRows {
  const columns = byDay ? table.columns : table.columns.filter((column) => column !== "day");
  const liveInPeriod = live.filter((day) => day >= period.from && day <= period.to);
  const months = table.monthly && !byDay ? keptMonthsOf(period, liveInPeriod) : [];
  const skipped = new Set(liveInPeriod.map(dayNumber));
  for (const first of months) {
    for (let day = dayNumber(first), end = dayNumber(nextMonth(first)); day < end; day++) skipped.add(day);
  }
  const tail = table.monthly && !byDay ? tailMonthOf(period) : null;
  const keptDays: number[] = [];
  const tailKeptDays: number[] = [];
  for (let day = dayNumber(period.from), last = dayNumber(period.to); day <= last; day++) {
    if (skipped.has(day)) continue;
    if (tail && day >= tail.first) tailKeptDays.push(day);
    else keptDays.push(day);
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
  const tailPart =
    table.monthly && tail && tailKeptDays.length > 0
      ? tailMonth({ days: table.table, months: table.monthly.table }, columns, tail, tailKeptDays)
      : null;
  return {
    sql: `${monthRows}SELECT ${columns.join(", ")} FROM ${table.table} WHERE (${keptRanges})${dimension}
          UNION ALL
          ${tailPart ? `${tailPart.sql} UNION ALL ` : ""}SELECT ${columns.join(", ")} FROM (${daily.sql}) AS live(${table.columns.join(", ")})`,
    bindings: [
      ...(monthRows ? [months] : []),
      ...keptRuns.flat(),
      ...(tailPart ? tailPart.bindings : []),
      ...daily.bindings,
    ],
  };
}

/**
 * The month the period ends in, when the period covers its first day but ends before its last:
 * its first day (as a day number and as text).
 */
function tailMonthOf(period: ReportPeriod): { first: number; month: string } | null {
  const month = `${period.to.slice(0, 7)}-01`;
  if (period.from > month || addDays(nextMonth(month), -1) <= period.to) return null;
  return { first: dayNumber(month), month };
}

/**
 * The tail month's rows: its month row when every day it summed is one of `keptDays` (the
 * month's days in the period that are not live), else the kept rows of those days.
 */
function tailMonth(
  table: { days: string; months: string },
  columns: readonly string[],
  tail: { month: string },
  keptDays: number[],
): DayRows {
  const covered = `EXISTS (SELECT FROM report_month_days summed
                            WHERE summed.month_table = '${table.months}' AND summed.month = CAST(? AS date)
                              AND summed.days <@ CAST(? AS date[]))`;
  const days = keptDays.map(dayText);
  const runs = runsOfNumbers(keptDays);
  return {
    sql: `SELECT ${columns.join(", ")} FROM ${table.months} WHERE month = CAST(? AS date) AND ${covered}
          UNION ALL
          SELECT ${columns.join(", ")} FROM ${table.days}
           WHERE (${runs.map(() => "day BETWEEN CAST(? AS date) AND CAST(? AS date)").join(" OR ")}) AND NOT ${covered}
          `,
    bindings: [tail.month, tail.month, days, ...runs.flat(), tail.month, days],
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
  const negated = columns.map((column, index) =>
    monthly.groupBy.includes(column) ? column : monthly.sums[index]!.startsWith("SUM(") ? `-${column}` : "NULL",
  );
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
  const throughColumns = columns.map((column, index) =>
    monthly.groupBy.includes(column) || monthly.sums[index]!.startsWith("SUM(") ? column : "NULL",
  );
  const negatedThrough = throughColumns.map((column) =>
    column === "NULL" || monthly.groupBy.includes(column) ? column : `-${column}`,
  );
  const throughSql = throughRuns
    .map(
      () => `SELECT ${throughColumns.join(", ")} FROM ${monthly.through} WHERE month =
               (SELECT MAX(month) FROM ${monthly.through} WHERE month <= CAST(? AS date))
             UNION ALL
             SELECT ${negatedThrough.join(", ")} FROM ${monthly.through} WHERE month =
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

/**
 * The statement that rewrites a table's kept month rows from its kept day rows, for the months
 * (first days) given: the job runs it after writing days of those months, in the same transaction.
 */
export function monthRows(table: DayTable, months: readonly string[]): DayRows[] {
  if (!table.monthly) return [];
  const { monthly } = table;
  const columns = table.columns.filter((column) => column !== "day");
  return [
    { sql: `DELETE FROM ${monthly.table} WHERE month = ANY(CAST(? AS date[]))`, bindings: [[...months]] },
    {
      sql: "DELETE FROM report_month_days WHERE month_table = ? AND month = ANY(CAST(? AS date[]))",
      bindings: [monthly.table, [...months]],
    },
    // The days whose rows each month row sums (rowsOf reads a month that the period ends in from
    // its month row only when they all lie in the period and none is live).
    {
      sql: `INSERT INTO report_month_days (month_table, month, days)
            SELECT ?, months.month, array_agg(DISTINCT ${table.table}.day ORDER BY ${table.table}.day)
              FROM unnest(CAST(? AS date[])) AS months(month)
              JOIN ${table.table} ON ${table.table}.day >= months.month
                                 AND ${table.table}.day < (months.month + interval '1 month')::date
             GROUP BY months.month`,
      bindings: [monthly.table, [...months]],
    },
    {
      sql: `INSERT INTO ${monthly.table} (month, ${columns.join(", ")})
            SELECT months.month, ${monthly.sums.join(", ")}
              FROM unnest(CAST(? AS date[])) AS months(month)
              JOIN ${table.table} ON ${table.table}.day >= months.month
                                 AND ${table.table}.day < (months.month + interval '1 month')::date
             GROUP BY months.month, ${monthly.groupBy.join(", ")}`,
      bindings: [[...months]],
    },
    ...(monthly.through ? throughRows(table, monthly.through, months) : []),
  ];
}

/**
 * Rewrites the running totals from the earliest of the months onwards, from the month rows (which
 * the statements before have just rewritten): every month from the first kept one to the last has
 * its totals, so that a month without sales still has the totals through it.
 */
function throughRows(table: DayTable, through: string, months: readonly string[]): DayRows[] {
  const monthly = table.monthly!;
  const additive = table.columns
    .filter((column) => column !== "day")
    .map((column, index) => ({ column, sum: monthly.sums[index]! }))
    .filter(({ column, sum }) => monthly.groupBy.includes(column) || sum.startsWith("SUM("));
  const earliest = [...months].sort()[0]!;
  return [
    { sql: `DELETE FROM ${through} WHERE month >= CAST(? AS date)`, bindings: [earliest] },
    {
      sql: `INSERT INTO ${through} (month, ${additive.map(({ column }) => column).join(", ")})
            SELECT months.month::date, ${additive
              .map(({ column, sum }) =>
                monthly.groupBy.includes(column) ? `kept.${column}` : sum.replace("SUM(", "SUM(kept."),
              )
              .join(", ")}
              FROM generate_series(GREATEST(CAST(? AS date), (SELECT MIN(month) FROM ${monthly.table})),
                                   (SELECT MAX(month) FROM ${monthly.table}), interval '1 month') AS months(month)
              JOIN ${monthly.table} kept ON kept.month <= months.month
             GROUP BY months.month, ${monthly.groupBy.map((column) => `kept.${column}`).join(", ")}`,
      bindings: [earliest],
    },
  ];
}

/** The group (its first day, YYYY-MM-DD) a date column falls in. */
export function bucketOfDay(column: string, by: string): string {
  return `date_trunc('${by}', ${column}::timestamp)::date`;
}
