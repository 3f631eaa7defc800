import type { Database } from "../../db/database";
import { countAllProducts } from "../catalog/stock";
import { Order } from "../orders/order.model";
import type { PublicOrder } from "../orders/order.shape";
import { STORE_TIME_ZONE } from "../orders/order-values.shared";
import { CONFIRMED_BY_ANSWER, CONFIRMED_BY_PAYMENT } from "../confirmation/order-confirmation.shared";
import type { StoreCounts } from "./store-figures.shared";
import type { Clock } from "../shared/clock";
import { systemClock } from "../shared/clock";
import { NotFoundError } from "../shared/errors.shared";
import { confirmationReport } from "./confirmation-report";
import { deliveriesReport } from "./deliveries-report";
import { paymentsReport } from "./payments-report";
import { productsReport } from "./products-report";
import {
  isReportName,
  previousPeriod,
  type Grouping,
  type ReportName,
  type ReportPeriod,
} from "./report-period.shared";
import { reportCsv } from "./report-csv";
import { liveDaysBetween, type LiveDays } from "./period-rows";
import { rollUpReportDays, type RollUpResult } from "./report-rollups";
import { isPagedReport, reportRequestOf, type ListPage } from "./report-sql";
import { salesReport } from "./sales-report";
import { salesWindowOf, stockReport } from "./stock-report";
import { MONEY_COLUMNS, PAID_ON_DELIVERY, REFUNDS_PAID, moneyOf } from "./report-sql";

import type { Reports } from "./report-kinds";
import { readOrders } from "../order-life/orders-reading";

export type { Reports };

/** A paged report's list: the page asked for (the API, the pages), or every row (the CSV download). */
export type ReportLists = "paged" | "whole";

export type DashboardFigures = {
  totalOrders: number;
  totalProducts: number;
  /** What the orders are worth to the store, in rupees (docs/product.md, "Admin"). */
  revenue: Revenue;
  pendingOrders: number;
  /** Pending orders not yet confirmed by phone: the calls to make before anything ships. */
  unconfirmedOrders: number;
  /**
   * Today's orders (in Pakistan) that were sent a confirmation, and how many of them are
   * confirmed so far: the day's confirmation rate (docs/product.md, "Confirming an order").
   */
  confirmationToday: { asked: number; confirmed: number };
  /** Pending orders with a phone still waiting for their customer's answer. */
  awaitingConfirmation: number;
  latestOrders: PublicOrder[];
};

/**
 * Revenue as a cash-on-delivery shop counts it (RULINGS.md: the dashboard's money figures): a
 * delivered parcel's cash or a verified advance payment is in the till, and a refund takes its
 * amount back out.
 */
export type Revenue = {
  /** Delivered cash-on-delivery orders and verified advance payments, less the refunds paid. */
  collected: number;
  /** Orders Pending or Shipped whose money is not in yet: cash the couriers still bring, transfers not verified. */
  toCollect: number;
  /** Cancelled orders' totals: never counted in the other figures. */
  cancelled: number;
  /** Collected and to collect: what the orders placed are worth, less cancelled orders and refunds. */
  total: number;
};

/** Placed today, counting days in Pakistan (two bindings: the time zone, twice). */
const TODAY_IN_PAKISTAN = "(created_at AT TIME ZONE ?)::date = (now() AT TIME ZONE ?)::date";

/** The dashboard shows the five latest orders (docs/product.md, "Admin"). */
const DASHBOARD_LATEST_ORDERS = 5;

/**
 * The store's figures for the admins (docs/product.md, "Admin"), each computed by PostgreSQL (no
 * order is loaded to count). It reads the modules below it and changes nothing; reports with
 * charts join it here (docs/recipes.md).
 */
export class ReportsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * A report over the period asked for (`from` and `to`, YYYY-MM-DD, both included, or neither
   * for the last 30 days; `by` day, week or month), compared with as many days before it. The
   * products and deliveries reports list their products a page at a time (`page`, `limit`), or
   * all of them for `lists: "whole"` (the CSV). An unknown name is a NotFoundError; bad dates or
   * a bad page an InvalidInputError.
   */
  async report<Name extends ReportName>(name: Name, input: unknown, lists?: ReportLists): Promise<Reports[Name]>;
  async report(name: string, input: unknown, lists?: ReportLists): Promise<Reports[ReportName]>;
  async report(name: string, input: unknown, lists: ReportLists = "paged"): Promise<Reports[ReportName]> {
    if (!isReportName(name)) throw new NotFoundError(`No report is named ${name}`);
    const { period, by, list } = reportRequestOf(input, this.clock(), {
      paged: lists === "paged" && isPagedReport(name),
    });
    const before = previousPeriod(period);
    // The previous period ends the day before the period starts: one list covers both. The stock
    // report reads the sales of its window only.
    const live =
      name === "stock"
        ? await liveDaysBetween(this.db, salesWindowOf(period).from, period.to)
        : await liveDaysBetween(this.db, before.from, period.to);
    const figures = await this.figures(name, period, before, by, live, list);
    return { ...figures, period, previousPeriod: before } as Reports[ReportName];
  }

  /** A report's table as CSV (report-csv.ts), for the same input as report(). */
  async reportCsv(name: string, input: unknown): Promise<string> {
    if (!isReportName(name)) throw new NotFoundError(`No report is named ${name}`);
    return reportCsv(name, await this.report(name, input, "whole"));
  }

  /** Rolls the closed days up (report-rollups.ts): the report-rollups job. */
  rollUpDays(): Promise<RollUpResult> {
    return rollUpReportDays(this.db, this.clock());
  }

  private figures(
    name: ReportName,
    period: ReportPeriod,
    before: ReportPeriod,
    by: Grouping,
    live: LiveDays,
    list: ListPage,
  ) {
    switch (name) {
      case "sales":
        return salesReport(this.db, period, before, by, live);
      case "products":
        return productsReport(this.db, period, before, live, list);
      case "deliveries":
        return deliveriesReport(this.db, period, before, by, live, list);
      case "confirmation":
        return confirmationReport(this.db, period, before, by, live);
      case "payments":
        return paymentsReport(this.db, period, before, live);
      case "stock":
        return stockReport(this.db, period, live);
    }
  }

  /**
   * The home page's counts in one round trip: products from the kept per-category counts
   * (migration 19), customers counted, and the approved reviews from their partial index
   * (migration 70), so the page never scans the catalogue.
   */
  async storeCounts(): Promise<StoreCounts> {
    const { rows } = await this.db.raw<{
      rows: { products: string; customers: string; reviews: string; average_rating: string | null }[];
    }>(`
      SELECT (SELECT COALESCE(SUM(products), 0) FROM product_counts) AS products,
             (SELECT count(*) FROM users WHERE role = 'customer') AS customers,
             approved.reviews, approved.average_rating
        FROM (SELECT count(*) AS reviews, avg(rating) AS average_rating
                FROM reviews WHERE status = 'approved') AS approved`);
    const row = rows[0]!;
    return {
      products: Number(row.products),
      customers: Number(row.customers),
      reviews: Number(row.reviews),
      averageRating: row.average_rating === null ? null : Number(row.average_rating),
    };
  }

  /** The admin dashboard's figures. */
  async dashboardFigures(): Promise<DashboardFigures> {
    const [orderFigures, totalProducts, latestOrders] = await Promise.all([
      Order.query(this.db)
        .leftJoin(Order.raw(`(${REFUNDS_PAID}) AS refunds`), "refunds.order_id", "orders.id")
        .first()
        .select(
          Order.raw("COUNT(*)::int AS total_orders"),
          Order.raw(MONEY_COLUMNS, [PAID_ON_DELIVERY]),
          Order.raw("(COUNT(*) FILTER (WHERE status = 'Pending'))::int AS pending_orders"),
          // The same orders as the admin list's filters these figures link to (order-desk.ts): an
          // order paid in advance is confirmed by its payment, never asked (order-confirmation.shared.ts).
          Order.raw(
            "(COUNT(*) FILTER (WHERE status = 'Pending' AND confirmed_at IS NULL AND payment_status <> ?))::int AS unconfirmed_orders",
            [CONFIRMED_BY_PAYMENT],
          ),
          Order.raw(
            `(COUNT(*) FILTER (WHERE phone IS NOT NULL AND payment_status = ? AND ${TODAY_IN_PAKISTAN}))::int AS asked_today`,
            [CONFIRMED_BY_ANSWER, STORE_TIME_ZONE, STORE_TIME_ZONE],
          ),
          Order.raw(
            `(COUNT(*) FILTER (WHERE phone IS NOT NULL AND ${TODAY_IN_PAKISTAN} AND confirmation_status = 'confirmed'))::int AS confirmed_today`,
            [STORE_TIME_ZONE, STORE_TIME_ZONE],
          ),
          Order.raw(
            "(COUNT(*) FILTER (WHERE status = 'Pending' AND confirmation_status = 'pending' AND phone IS NOT NULL AND payment_status = ?))::int AS awaiting_confirmation",
            [CONFIRMED_BY_ANSWER],
          ),
        ) as unknown as Promise<{
        totalOrders: number;
        collectedAmount: number;
        refundedAmount: number;
        toCollectAmount: number;
        cancelledAmount: number;
        pendingOrders: number;
        unconfirmedOrders: number;
        askedToday: number;
        confirmedToday: number;
        awaitingConfirmation: number;
      }>,
      countAllProducts(this.db),
      readOrders(this.db, (query) => query.limit(DASHBOARD_LATEST_ORDERS)),
    ]);
    const { collectedAmount, refundedAmount, toCollectAmount, cancelledAmount, askedToday, confirmedToday } =
      orderFigures;
    const money = moneyOf({ collectedAmount, refundedAmount, toCollectAmount, cancelledAmount });
    const revenue: Revenue = {
      collected: money.collected / 100,
      toCollect: money.toCollect / 100,
      cancelled: money.cancelled / 100,
      total: money.revenue / 100,
    };
    // Named one by one: the query answers an Order model, whose other fields are not figures.
    return {
      totalOrders: orderFigures.totalOrders,
      pendingOrders: orderFigures.pendingOrders,
      unconfirmedOrders: orderFigures.unconfirmedOrders,
      awaitingConfirmation: orderFigures.awaitingConfirmation,
      revenue,
      confirmationToday: { asked: askedToday, confirmed: confirmedToday },
      totalProducts,
      latestOrders,
    };
  }
}
