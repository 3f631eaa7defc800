import type { Knex } from "knex";
import { STORE_TIME_ZONE } from "../shared/store-dates.shared";
import { runsOfDays } from "./report-day-numbers";
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

/**
 * What a column of a table kept per month is to the readers that subtract rows (a month less some
 * of its days, running totals): a grouping column, a sum (which may be negated and added up), or
 * neither (the sold name, a MAX), which they leave out. Columns as in `columns`, the day's left out.
 */
export function monthlyColumnKinds(table: DayTable): { column: string; kind: "group" | "sum" | "other" }[] {
  const monthly = table.monthly!;
  return table.columns
    .filter((column) => column !== "day")
    .map((column, index) => ({
      column,
      kind: monthly.groupBy.includes(column) ? "group" : monthly.sums[index]!.startsWith("SUM(") ? "sum" : "other",
    }));
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
  const additive = monthlyColumnKinds(table)
    .map(({ column, kind }, index) => ({ column, kind, sum: monthly.sums[index]! }))
    .filter(({ kind }) => kind !== "other");
  const earliest = [...months].sort()[0]!;
  return [
    { sql: `DELETE FROM ${through} WHERE month >= CAST(? AS date)`, bindings: [earliest] },
    {
      sql: `INSERT INTO ${through} (month, ${additive.map(({ column }) => column).join(", ")})
            SELECT months.month::date, ${additive
              .map(({ column, kind, sum }) => (kind === "group" ? `kept.${column}` : sum.replace("SUM(", "SUM(kept.")))
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
