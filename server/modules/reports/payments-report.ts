import type { Database } from "../../db/database";
import { PAYMENT_METHODS } from "../../providers/payment-methods/payment-methods.shared";
import type { ReportPeriod } from "./report-period.shared";
import {
  MONEY_COLUMNS,
  PAID_ON_DELIVERY,
  REFUNDS_PAID,
  moneyOf,
  periodBindings,
  placedIn,
  type MoneyAmounts,
} from "./report-sql";

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
): Promise<PaymentsReport> {
  const [now, before] = await Promise.all([paymentFigures(db, period), paymentFigures(db, previous)]);
  return { ...now, previous: before.totals };
}

async function paymentFigures(db: Database, period: ReportPeriod) {
  const placed = periodBindings(period);
  const [methods, codes, reasons] = await Promise.all([
    db.raw<{ rows: (MoneyAmounts & { method: string; orders: number })[] }>(
      `SELECT orders.payment_method AS method, (COUNT(*) FILTER (WHERE orders.status <> 'Cancelled'))::int AS orders,
              ${MONEY_COLUMNS}
         FROM orders LEFT JOIN (${REFUNDS_PAID}) refunds ON refunds.order_id = orders.id
        WHERE ${placedIn("orders.created_at")}
        GROUP BY 1`,
      [PAID_ON_DELIVERY, ...placed],
    ),
    db.raw<{ rows: CodeFigures[] }>(
      `SELECT orders.discount_code AS code, COUNT(*)::int AS uses, SUM(orders.discount_amount) AS "amountGiven"
         FROM orders
        WHERE orders.discount_code IS NOT NULL AND orders.status <> 'Cancelled' AND ${placedIn("orders.created_at")}
        GROUP BY 1 ORDER BY uses DESC, code`,
      placed,
    ),
    db.raw<{ rows: ReturnReasonFigures[] }>(
      `SELECT reason, COUNT(*)::int AS returns, (COUNT(*) FILTER (WHERE status = 'Received'))::int AS received,
              COALESCE(SUM(refund_amount) FILTER (WHERE status = 'Received'), 0) AS refunded
         FROM order_returns WHERE ${placedIn("order_returns.created_at")}
        GROUP BY 1 ORDER BY returns DESC, reason`,
      placed,
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
