import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { STORE_TIME_ZONE } from "../shared/store-dates.shared";
import type { ReportPeriod } from "./report-period.shared";
import { MONEY_COLUMNS, PAID_ON_DELIVERY, REFUNDS_PAID } from "./report-sql";

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
  daily: (days: string[]) => DayRows;
};

/**
 * `wanted(day)` joined to the rows of a table whose moment column falls on one of the days (one
 * binding: the days as a date[]). Each day is its own range of the column's index.
 */
function onDays(table: string, column: string): string {
  return `unnest(CAST(? AS date[])) AS wanted(day)
    JOIN ${table} ON ${column} >= wanted.day::timestamp AT TIME ZONE '${STORE_TIME_ZONE}'
                 AND ${column} < (wanted.day + 1)::timestamp AT TIME ZONE '${STORE_TIME_ZONE}'`;
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
  daily: (days) => ({
    sql: `SELECT wanted.day, orders.payment_method,
                 (COUNT(*) FILTER (WHERE ${NOT_CANCELLED}))::int, (COUNT(*) FILTER (WHERE orders.status = 'Cancelled'))::int,
                 ${MONEY_COLUMNS}
            FROM ${onDays("orders", "orders.created_at")}
            LEFT JOIN (${REFUNDS_PAID}) refunds ON refunds.order_id = orders.id
           GROUP BY 1, 2`,
    bindings: [PAID_ON_DELIVERY, days],
  }),
};

const OUTCOME_TABLE_COLUMNS = ["day", "dimension", "name", "orders", "delivered", "returned", "cancelled", "open"];

function outcomesBy(dimension: string, group: string): DayTable {
  return {
    table: "report_day_outcomes",
    columns: OUTCOME_TABLE_COLUMNS,
    dimension,
    daily: (days) => ({
      sql: `SELECT wanted.day, '${dimension}', ${group}, ${OUTCOME_COLUMNS}
              FROM ${onDays("orders", "orders.created_at")}
             GROUP BY 1, 2, 3`,
      bindings: [days],
    }),
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
  daily: (days) => ({
    sql: `SELECT wanted.day, order_items.product_id,
                 CASE WHEN order_items.product_id IS NULL THEN order_items.product_name END,
                 ${OUTCOME_COLUMNS},
                 (COUNT(*) FILTER (WHERE ${NOT_CANCELLED}))::int,
                 MAX(order_items.product_name) FILTER (WHERE ${NOT_CANCELLED}),
                 COALESCE(SUM(order_items.quantity) FILTER (WHERE ${NOT_CANCELLED}), 0)::int,
                 COALESCE(SUM(order_items.quantity * order_items.unit_price) FILTER (WHERE ${NOT_CANCELLED}), 0)
            FROM ${onDays("orders", "orders.created_at")}
            JOIN order_items ON order_items.order_id = orders.id
           GROUP BY 1, 2, 3`,
    bindings: [days],
  }),
};

/**
 * Orders asked to confirm (with a mobile number) per confirmation channel, and their answers:
 * the confirmation report. Its median time to confirm is not a sum of days and is read live
 * (confirmation-report.ts).
 */
export const CONFIRMATION_DAYS: DayTable = {
  table: "report_day_confirmations",
  columns: ["day", "channel", "asked", "confirmed", "cancelled_by_customer"],
  daily: (days) => ({
    sql: `SELECT wanted.day, orders.confirmation_channel, COUNT(*)::int,
                 (COUNT(*) FILTER (WHERE ${CONFIRMED}))::int, (COUNT(*) FILTER (WHERE ${CANCELLED_BY_CUSTOMER}))::int
            FROM ${onDays("orders", "orders.created_at")}
           WHERE orders.phone IS NOT NULL
           GROUP BY 1, 2`,
    bindings: [days],
  }),
};

/** Each discount code's uses on orders not cancelled, and the amount it took off: the payments report. */
export const DISCOUNT_DAYS: DayTable = {
  table: "report_day_discounts",
  columns: ["day", "code", "uses", "amount_given"],
  daily: (days) => ({
    sql: `SELECT wanted.day, orders.discount_code, COUNT(*)::int, COALESCE(SUM(orders.discount_amount), 0)
            FROM ${onDays("orders", "orders.created_at")}
           WHERE orders.discount_code IS NOT NULL AND ${NOT_CANCELLED}
           GROUP BY 1, 2`,
    bindings: [days],
  }),
};

/** Returns asked for on the day (their own day, not their order's) per reason, and the refunds paid: the payments report. */
export const RETURN_DAYS: DayTable = {
  table: "report_day_returns",
  columns: ["day", "reason", "returns", "received", "refunded"],
  daily: (days) => ({
    sql: `SELECT wanted.day, order_returns.reason, COUNT(*)::int,
                 (COUNT(*) FILTER (WHERE order_returns.status = 'Received'))::int,
                 COALESCE(SUM(order_returns.refund_amount) FILTER (WHERE order_returns.status = 'Received'), 0)
            FROM ${onDays("order_returns", "order_returns.created_at")}
           GROUP BY 1, 2`,
    bindings: [days],
  }),
};

/** Every kept table's statements, in the order the job writes them. */
export const DAY_TABLES: readonly DayTable[] = [
  MONEY_DAYS,
  CITY_DAYS,
  COURIER_DAYS,
  PRODUCT_DAYS,
  CONFIRMATION_DAYS,
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
  const liveInPeriod = live.filter((day) => day >= period.from && day <= period.to);
  const daily = table.daily(liveInPeriod);
  const dimension = table.dimension ? ` AND dimension = '${table.dimension}'` : "";
  return {
    sql: `SELECT ${table.columns.join(", ")} FROM ${table.table}
           WHERE day >= CAST(? AS date) AND day <= CAST(? AS date)
             AND NOT (day = ANY(CAST(? AS date[])))${dimension}
          UNION ALL
          ${daily.sql}`,
    bindings: [period.from, period.to, [...liveInPeriod], ...daily.bindings],
  };
}

/** The group (its first day, YYYY-MM-DD) a date column falls in. */
export function bucketOfDay(column: string, by: string): string {
  return `date_trunc('${by}', ${column}::timestamp)::date`;
}
