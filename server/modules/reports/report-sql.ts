import * as yup from "yup";
import { PAYMENT_METHODS } from "../../providers/payment-methods/payment-methods.shared";
import { limitParam, pageParam } from "../shared/list-query";
import { STORE_TIME_ZONE } from "../shared/store-dates.shared";
import { validateInput } from "../shared/validation";
import {
  GROUPINGS,
  PERIOD_MAX_DAYS,
  REPORT_PAGE_SIZE,
  REPORT_PAGE_SIZE_MAX,
  dateValue,
  defaultGrouping,
  periodDays,
  presetPeriod,
  type Grouping,
  type ReportName,
  type ReportPeriod,
} from "./report-period.shared";

/**
 * What every report shares: the period asked for (validated the same way for the pages and the
 * API), the SQL that picks a period's orders by their day in Pakistan, and the money rules of
 * the dashboard (RULINGS.md: "collected" and "to collect"), written once for both.
 */

/** A form's empty field is a field not given. */
const blankAsAbsent = (value: unknown) => {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
};

const dateField = (label: string) =>
  yup
    .string()
    .transform(blankAsAbsent)
    .typeError(`${label} must be a date (YYYY-MM-DD)`)
    .test("date", `${label} must be a date (YYYY-MM-DD)`, (value) => value === undefined || dateValue(value) !== null);

export const reportPeriodSchema = yup.object().shape(
  {
    from: dateField("From").when("to", {
      is: (to: unknown) => to !== undefined && to !== "",
      then: (schema) => schema.required("Enter the first day (YYYY-MM-DD)"),
    }),
    to: dateField("To")
      .when("from", {
        is: (from: unknown) => from !== undefined && from !== "",
        then: (schema) => schema.required("Enter the last day (YYYY-MM-DD)"),
      })
      .test("order", "To must be on or after From", function (to) {
        const from = this.parent.from as string | undefined;
        if (!to || !from || dateValue(to) === null || dateValue(from) === null) return true;
        return dateValue(to)! >= dateValue(from)!;
      })
      .test("span", `A report covers at most ${PERIOD_MAX_DAYS} days`, function (to) {
        const from = this.parent.from as string | undefined;
        if (!to || !from || dateValue(to) === null || dateValue(from) === null || dateValue(to)! < dateValue(from)!) {
          return true;
        }
        return periodDays({ from, to }) <= PERIOD_MAX_DAYS;
      }),
    by: yup
      .string()
      .transform(blankAsAbsent)
      .typeError(`By must be one of ${GROUPINGS.join(", ")}`)
      .oneOf([...GROUPINGS, undefined], `By must be one of ${GROUPINGS.join(", ")}`),
  },
  // from and to each look at the other.
  [["from", "to"]],
);

/**
 * The products report's best sellers and the deliveries report's outcomes per product come a page
 * at a time (docs/api.md, "Reports"): about 1,400 of the bench's 2,000 watches sell in 30 days,
 * and a page that lists them all costs more to send and to read than the report's other figures.
 */
export const PAGED_REPORTS = ["products", "deliveries"] as const satisfies readonly ReportName[];
export type PagedReportName = (typeof PAGED_REPORTS)[number];

export function isPagedReport(name: ReportName): name is PagedReportName {
  return (PAGED_REPORTS as readonly ReportName[]).includes(name);
}

/** The period, and the page of the report's list (`page`, `limit` up to 200), as the paged reports take them. */
export const pagedReportSchema = reportPeriodSchema.shape({
  page: pageParam(),
  limit: limitParam(REPORT_PAGE_SIZE, REPORT_PAGE_SIZE_MAX),
});

/** A page of a report's list, or null for the whole list (the CSV download). */
export type ListPage = { page: number; limit: number } | null;

export type ReportRequest = { period: ReportPeriod; by: Grouping; list: ListPage };

/**
 * The period and grouping asked for: `from` and `to` together, or neither for the last 30 days
 * (today in Pakistan included); `by` defaults to what suits the period's length. A paged report
 * also takes its list's `page` and `limit`, unless the whole list is wanted.
 */
export function reportRequestOf(input: unknown, now: Date, { paged }: { paged: boolean }): ReportRequest {
  let fields: yup.InferType<typeof reportPeriodSchema>;
  let list: ListPage = null;
  if (paged) {
    const { page, limit, ...period } = validateInput(pagedReportSchema, input);
    fields = period;
    list = { page, limit };
  } else {
    fields = validateInput(reportPeriodSchema, input);
  }
  const period = fields.from && fields.to ? { from: fields.from, to: fields.to } : presetPeriod("30-days", now);
  return { period, by: (fields.by as Grouping | undefined) || defaultGrouping(period), list };
}

/** The bindings of a page's `LIMIT ? OFFSET ?` (no limit for the whole list). */
export function pageBindings(list: ListPage): [number | null, number] {
  return list ? [list.limit, (list.page - 1) * list.limit] : [null, 0];
}

/**
 * A timestamp column within the period's days in Pakistan (two bindings: from, to). The bounds
 * are moments, so the column's own index serves the range.
 */
export function placedIn(column: string): string {
  return `${column} >= CAST(? AS date)::timestamp AT TIME ZONE '${STORE_TIME_ZONE}'
      AND ${column} < (CAST(? AS date) + 1)::timestamp AT TIME ZONE '${STORE_TIME_ZONE}'`;
}

export function periodBindings(period: ReportPeriod): string[] {
  return [period.from, period.to];
}

/** The group (its first day, YYYY-MM-DD) a timestamp column falls in, in Pakistan's days. */
export function bucketOf(column: string, by: Grouping): string {
  return `date_trunc('${by}', ${column} AT TIME ZONE '${STORE_TIME_ZONE}')::date`;
}

/** Every group of the period, empty ones included, as a table `buckets(bucket date)` (two bindings). */
export function bucketsOf(by: Grouping): string {
  return `SELECT generate_series(date_trunc('${by}', CAST(? AS date)), CAST(? AS date), interval '1 ${by}')::date AS bucket`;
}

/** Methods whose cash comes with the parcel; a method paid in advance is collected when its payment is verified. */
export const PAID_ON_DELIVERY = PAYMENT_METHODS.filter((method) => !method.paidBeforeShipping).map(
  (method) => method.name,
);

/** Each order's refunds paid (returns received), as a table `refunds(order_id, refunded)`. */
export const REFUNDS_PAID = `SELECT order_id, SUM(refund_amount) AS refunded
    FROM order_returns WHERE status = 'Received' GROUP BY order_id`;

/**
 * The same for one order, as a LATERAL subquery on `orders` (`refunds(refunded)`): the day rows
 * read the returns of their days' orders only, where REFUNDS_PAID adds up every return received.
 */
export const ORDER_REFUNDS_PAID = `SELECT SUM(order_returns.refund_amount) AS refunded FROM order_returns
    WHERE order_returns.order_id = orders.id AND order_returns.status = 'Received'`;

/**
 * The money of a set of orders (RULINGS.md: the dashboard's money figures, which the reports use
 * too), as select-list columns over `orders` LEFT JOIN the refunds (REFUNDS_PAID) AS `refunds`;
 * one binding (the methods paid on delivery). Collected: delivered orders paid on delivery and
 * orders whose advance payment is verified (in the till before the parcel leaves; the verified
 * amount is the order's total, server/modules/payments/order-payment.ts), less the refunds paid, all
 * on orders not cancelled. To collect: the other orders Pending or Shipped.
 */
const COLLECTED = `orders.status <> 'Cancelled'
    AND ((orders.status = 'Delivered' AND orders.payment_method = ANY(?)) OR orders.payment_status = 'verified')`;

export const MONEY_COLUMNS = `
  COALESCE(SUM(orders.total_price) FILTER (WHERE ${COLLECTED}), 0) AS "collectedAmount",
  COALESCE(SUM(refunds.refunded) FILTER (WHERE orders.status <> 'Cancelled'), 0) AS "refundedAmount",
  COALESCE(SUM(orders.total_price) FILTER (WHERE orders.status IN ('Pending', 'Shipped')
    AND orders.payment_status <> 'verified'), 0) AS "toCollectAmount",
  COALESCE(SUM(orders.total_price) FILTER (WHERE orders.status = 'Cancelled'), 0) AS "cancelledAmount"`;

export type MoneyAmounts = {
  collectedAmount: number;
  refundedAmount: number;
  toCollectAmount: number;
  cancelledAmount: number;
};

/** In paisa, as the store adds money up (server/modules/shared/money.shared.ts). */
export type MoneyPaisa = { collected: number; toCollect: number; cancelled: number; revenue: number };

/** Revenue is what the orders are worth: collected and still to collect (cancelled orders and refunds out). */
export function moneyOf(amounts: MoneyAmounts): MoneyPaisa {
  const paisa = (rupees: number) => Math.round(Number(rupees) * 100);
  const collected = paisa(amounts.collectedAmount) - paisa(amounts.refundedAmount);
  const toCollect = paisa(amounts.toCollectAmount);
  return { collected, toCollect, cancelled: paisa(amounts.cancelledAmount), revenue: collected + toCollect };
}

/** A share (0 to 1) rounded to 4 places, 0 of nothing. */
export function shareOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}
