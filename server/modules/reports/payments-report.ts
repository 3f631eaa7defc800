import type { Database } from "../../db/database";
import { PAYMENT_METHODS } from "../../providers/payment-methods/payment-methods.shared";
import type { ReportPeriod } from "./report-period.shared";
import { DISCOUNT_DAYS, MONEY_DAYS, RETURN_DAYS } from "./report-days";
import { dayRowsOf, type LiveDays } from "./period-rows";
import { moneyOf, type MoneyAmounts } from "./report-sql";

/**
 * The payments and discounts report (docs/product.md, "Reports"): per payment method (every one
 * the registry knows, server/providers/payment-methods), the orders placed in the period and not
 * cancelled and their revenue, as the sales report counts it; each discount code's uses on those
 * orders and the amount it took off; and the returns asked for in the period, per reason, with
 * the refunds paid for them.
 */
export type MethodFigures = { method: string; label: string; orders: number; revenue: number };

export type CodeFigures = { code: string; uses: number; amountGiven: number };

export type ReturnReasonFigures = { reason: string; returns: number; received: number; refunded: number };

export type PaymentsTotals = {
  orders: number;
  revenue: number;
  discountUses: number;
  amountGiven: number;
  returns: number;
  refunded: number;
};

export type PaymentsReport = {
  /** One per payment method, in the registry's order. */
  series: MethodFigures[];
  discountCodes: CodeFigures[];
  returnReasons: ReturnReasonFigures[];
  totals: PaymentsTotals;
  previous: PaymentsTotals;
};

export async function paymentsReport(
  db: Database,
  period: ReportPeriod,
  previous: ReportPeriod,
  live: LiveDays,
): Promise<PaymentsReport> {
  const [now, before] = await Promise.all([paymentFigures(db, period, live), paymentFigures(db, previous, live)]);
  return { ...now, previous: before.totals };
}

async function paymentFigures(db: Database, period: ReportPeriod, live: LiveDays) {
  const money = dayRowsOf(MONEY_DAYS, period, live);
  const discounts = dayRowsOf(DISCOUNT_DAYS, period, live);
  const returns = dayRowsOf(RETURN_DAYS, period, live);
  const [methods, codes, reasons] = await Promise.all([
    db.raw<{ rows: (MoneyAmounts & { method: string; orders: number })[] }>(
      `SELECT days.payment_method AS method, SUM(days.orders)::int AS orders,
              SUM(days.collected_amount) AS "collectedAmount", SUM(days.refunded_amount) AS "refundedAmount",
              SUM(days.to_collect_amount) AS "toCollectAmount", SUM(days.cancelled_amount) AS "cancelledAmount"
         FROM (${money.sql}) days
        GROUP BY 1`,
      money.bindings,
    ),
    db.raw<{ rows: CodeFigures[] }>(
      `SELECT days.code, SUM(days.uses)::int AS uses, SUM(days.amount_given) AS "amountGiven"
         FROM (${discounts.sql}) days
        GROUP BY 1 ORDER BY uses DESC, code`,
      discounts.bindings,
    ),
    db.raw<{ rows: ReturnReasonFigures[] }>(
      `SELECT days.reason, SUM(days.returns)::int AS returns, SUM(days.received)::int AS received,
              SUM(days.refunded) AS refunded
         FROM (${returns.sql}) days
        GROUP BY 1 ORDER BY returns DESC, reason`,
      returns.bindings,
    ),
  ]);
  const series: MethodFigures[] = PAYMENT_METHODS.map((method) => {
    const row = methods.rows.find((found) => found.method === method.name);
    return {
      method: method.name,
      label: method.label,
      orders: row?.orders ?? 0,
      revenue: row ? moneyOf(row).revenue / 100 : 0,
    };
  });
  const paisa = (rupees: number) => Math.round(Number(rupees) * 100);
  const discountCodes = codes.rows.map((row) => ({ ...row, amountGiven: Number(row.amountGiven) }));
  const returnReasons = reasons.rows.map((row) => ({ ...row, refunded: Number(row.refunded) }));
  const sum = <T>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
  const totals: PaymentsTotals = {
    orders: sum(series, (row) => row.orders),
    revenue: sum(series, (row) => paisa(row.revenue)) / 100,
    discountUses: sum(discountCodes, (row) => row.uses),
    amountGiven: sum(discountCodes, (row) => paisa(row.amountGiven)) / 100,
    returns: sum(returnReasons, (row) => row.returns),
    refunded: sum(returnReasons, (row) => paisa(row.refunded)) / 100,
  };
  return { series, discountCodes, returnReasons, totals };
}
