import type { Database } from "../../db/database";
import type { Grouping, ReportPeriod } from "./report-period.shared";
import { CONFIRMATION_DAYS, CONFIRMATION_WAIT_DAYS, bucketOfDay } from "./report-days";
import { dayRowsOf, type LiveDays } from "./period-rows";
import { bucketsOf, periodBindings, shareOf } from "./report-sql";

/**
 * The confirmation report (docs/product.md, "Reports" and "Confirming an order"): the orders
 * placed in the period that were asked to confirm (those with a mobile number, as the dashboard
 * counts them), and each one's answer: confirmed (by the customer or an admin on the phone),
 * cancelled by the customer (from the confirmation, or on My Orders before confirming), or not
 * answered. The median time to confirm runs from the order to its confirmation.
 */
export type ConfirmationCounts = {
  asked: number;
  confirmed: number;
  cancelledByCustomer: number;
  notAnswered: number;
  /** Confirmed among asked, 0 to 1. */
  confirmationRate: number;
};

export type ConfirmationTotals = ConfirmationCounts & {
  /** Minutes, rounded to one decimal; null without a confirmed order. */
  medianMinutesToConfirm: number | null;
};

export type ConfirmationReport = {
  series: (ConfirmationCounts & { period: string })[];
  /** Confirmed orders per channel (whatsapp, sms, link, phone). */
  byChannel: { channel: string; confirmed: number }[];
  totals: ConfirmationTotals;
  previous: ConfirmationTotals;
  by: Grouping;
};

const COUNT_SUMS = `SUM(days.asked)::int AS asked, SUM(days.confirmed)::int AS confirmed,
  SUM(days.cancelled_by_customer)::int AS "cancelledByCustomer"`;

/**
 * The median is not a sum of days (a day's median and count do not give a month's), but the
 * median of the period's waits is that of its days' waits put together: the kept days' waits
 * (report-days.ts, CONFIRMATION_WAIT_DAYS) and the live days' are unnested and sorted once. A year
 * reads 365 rows rather than every confirmed order (docs/decisions/2026-11-26-report-speed.md).
 */
const MEDIAN_SECONDS = "percentile_cont(0.5) WITHIN GROUP (ORDER BY wait)";

type Counted = { asked: number; confirmed: number; cancelledByCustomer: number };

export async function confirmationReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  by: Grouping,
  live: LiveDays,
): Promise<ConfirmationReport> {
  const days = dayRowsOf(CONFIRMATION_DAYS, period, live);
  const [series, byChannel, now, before] = await Promise.all([
    db.raw<{ rows: (Counted & { period: string })[] }>(
      `WITH buckets AS (${bucketsOf(by)}),
            placed AS (SELECT ${bucketOfDay("days.day", by)} AS bucket, ${COUNT_SUMS}
                         FROM (${days.sql}) days GROUP BY 1)
       SELECT to_char(buckets.bucket, 'YYYY-MM-DD') AS period, COALESCE(placed.asked, 0) AS asked,
              COALESCE(placed.confirmed, 0) AS confirmed,
              COALESCE(placed."cancelledByCustomer", 0) AS "cancelledByCustomer"
         FROM buckets LEFT JOIN placed ON placed.bucket = buckets.bucket
        ORDER BY buckets.bucket`,
      [...periodBindings(period), ...days.bindings],
    ),
    db.raw<{ rows: { channel: string; confirmed: number }[] }>(
      `SELECT days.channel, SUM(days.confirmed)::int AS confirmed
         FROM (${days.sql}) days
        GROUP BY 1 HAVING SUM(days.confirmed) > 0
        ORDER BY confirmed DESC, channel`,
      days.bindings,
    ),
    totalsQuery(db, period, live),
    totalsQuery(db, previous, live),
  ]);
  return {
    series: series.rows.map((row) => ({ period: row.period, ...countsOf(row) })),
    byChannel: byChannel.rows,
    totals: now,
    previous: before,
    by,
  };
}

async function totalsQuery(db: Database, period: ReportPeriod, live: LiveDays): Promise<ConfirmationTotals> {
  const days = dayRowsOf(CONFIRMATION_DAYS, period, live);
  const waits = dayRowsOf(CONFIRMATION_WAIT_DAYS, period, live);
  const { rows } = await db.raw<{ rows: (Counted & { medianSeconds: number | null })[] }>(
    `SELECT COALESCE(SUM(days.asked), 0)::int AS asked, COALESCE(SUM(days.confirmed), 0)::int AS confirmed,
            COALESCE(SUM(days.cancelled_by_customer), 0)::int AS "cancelledByCustomer",
            (SELECT ${MEDIAN_SECONDS} FROM (${waits.sql}) waiting, unnest(waiting.waits) AS wait) AS "medianSeconds"
       FROM (${days.sql}) days`,
    // The median's subquery comes first in the text, so its bindings do too.
    [...waits.bindings, ...days.bindings],
  );
  const row = rows[0]!;
  return {
    ...countsOf(row),
    medianMinutesToConfirm: row.medianSeconds === null ? null : Math.round(Number(row.medianSeconds) / 6) / 10,
  };
}

function countsOf(row: Counted): ConfirmationCounts {
  return {
    asked: row.asked,
    confirmed: row.confirmed,
    cancelledByCustomer: row.cancelledByCustomer,
    notAnswered: row.asked - row.confirmed - row.cancelledByCustomer,
    confirmationRate: shareOf(row.confirmed, row.asked),
  };
}
