import type { Database } from "../../db/database";
import type { Grouping, ReportPeriod } from "./report-period.shared";
import { bucketOf, bucketsOf, periodBindings, placedIn, shareOf } from "./report-sql";

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

const CONFIRMED = "orders.confirmation_status = 'confirmed'";
const CANCELLED_BY_CUSTOMER = `orders.confirmation_status = 'cancelled'
  OR (orders.confirmation_status = 'pending' AND orders.status = 'Cancelled' AND orders.cancelled_by_customer)`;

const COUNT_COLUMNS = `
  COUNT(*)::int AS asked,
  (COUNT(*) FILTER (WHERE ${CONFIRMED}))::int AS confirmed,
  (COUNT(*) FILTER (WHERE ${CANCELLED_BY_CUSTOMER}))::int AS "cancelledByCustomer"`;

const MEDIAN_SECONDS = `percentile_cont(0.5) WITHIN GROUP (
    ORDER BY EXTRACT(EPOCH FROM orders.confirmation_at - orders.created_at)) FILTER (WHERE ${CONFIRMED})`;

const ASKED = "orders.phone IS NOT NULL";

type Counted = { asked: number; confirmed: number; cancelledByCustomer: number };

export async function confirmationReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  by: Grouping,
): Promise<ConfirmationReport> {
  const placed = periodBindings(period);
  const [series, byChannel, now, before] = await Promise.all([
    db.raw<{ rows: (Counted & { period: string })[] }>(
      `WITH buckets AS (${bucketsOf(by)}),
            placed AS (SELECT ${bucketOf("orders.created_at", by)} AS bucket, ${COUNT_COLUMNS}
                         FROM orders WHERE ${ASKED} AND ${placedIn("orders.created_at")} GROUP BY 1)
       SELECT to_char(buckets.bucket, 'YYYY-MM-DD') AS period, COALESCE(placed.asked, 0) AS asked,
              COALESCE(placed.confirmed, 0) AS confirmed,
              COALESCE(placed."cancelledByCustomer", 0) AS "cancelledByCustomer"
         FROM buckets LEFT JOIN placed ON placed.bucket = buckets.bucket
        ORDER BY buckets.bucket`,
      [...placed, ...placed],
    ),
    db.raw<{ rows: { channel: string; confirmed: number }[] }>(
      `SELECT orders.confirmation_channel AS channel, COUNT(*)::int AS confirmed
         FROM orders WHERE ${ASKED} AND ${CONFIRMED} AND ${placedIn("orders.created_at")}
        GROUP BY 1 ORDER BY confirmed DESC, channel`,
      placed,
    ),
    totalsQuery(db, period),
    totalsQuery(db, previous),
  ]);
  return {
    series: series.rows.map((row) => ({ period: row.period, ...countsOf(row) })),
    byChannel: byChannel.rows,
    totals: now,
    previous: before,
    by,
  };
}

async function totalsQuery(db: Database, period: ReportPeriod): Promise<ConfirmationTotals> {
  const { rows } = await db.raw<{ rows: (Counted & { medianSeconds: number | null })[] }>(
    `SELECT ${COUNT_COLUMNS}, ${MEDIAN_SECONDS} AS "medianSeconds"
       FROM orders WHERE ${ASKED} AND ${placedIn("orders.created_at")}`,
    periodBindings(period),
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
