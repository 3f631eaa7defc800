import type { Database } from "../../db/database";
import { countAllProducts } from "../catalog/stock";
import { Order } from "../orders/order.model";
import type { PublicOrder } from "../orders/order.shape";
import { readOrders } from "../orders/orders.service";
import { STORE_TIME_ZONE } from "../orders/order-values.shared";
import { toPaisa } from "../shared/money.shared";
import type { StoreCounts } from "./store-figures.shared";
import { PAYMENT_METHODS } from "../../providers/payment-methods/payment-methods.shared";

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
 * Revenue as a cash-on-delivery shop counts it (RULINGS.md: the dashboard's money figures): only a
 * delivered parcel's cash is in the till, and a refund takes its amount back out.
 */
export type Revenue = {
  /** Delivered orders of the methods paid on delivery (cash on delivery), less the refunds paid. */
  collected: number;
  /** Orders not yet delivered and not cancelled (Pending and Shipped): cash the couriers still bring. */
  toCollect: number;
  /** Cancelled orders' totals: never counted in the other figures. */
  cancelled: number;
  /** Collected and to collect: what the orders placed are worth, less cancelled orders and refunds. */
  total: number;
};

/** Methods whose cash comes with the parcel; a method paid in advance is collected when its payment is verified. */
const PAID_ON_DELIVERY = PAYMENT_METHODS.filter((method) => !method.paidBeforeShipping).map((method) => method.name);

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
  constructor(private readonly db: Database) {}

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
        .first()
        .select(
          Order.raw("COUNT(*)::int AS total_orders"),
          Order.raw(
            "COALESCE(SUM(total_price) FILTER (WHERE status = 'Delivered' AND payment_method = ANY(?)), 0) AS delivered_amount",
            [PAID_ON_DELIVERY],
          ),
          Order.raw(
            `(SELECT COALESCE(SUM(order_returns.refund_amount), 0) FROM order_returns
               JOIN orders refunded ON refunded.id = order_returns.order_id
              WHERE order_returns.status = 'Received' AND refunded.status <> 'Cancelled') AS refunded_amount`,
          ),
          Order.raw(
            "COALESCE(SUM(total_price) FILTER (WHERE status IN ('Pending', 'Shipped')), 0) AS to_collect_amount",
          ),
          Order.raw("COALESCE(SUM(total_price) FILTER (WHERE status = 'Cancelled'), 0) AS cancelled_amount"),
          Order.raw("(COUNT(*) FILTER (WHERE status = 'Pending'))::int AS pending_orders"),
          Order.raw("(COUNT(*) FILTER (WHERE status = 'Pending' AND confirmed_at IS NULL))::int AS unconfirmed_orders"),
          Order.raw(`(COUNT(*) FILTER (WHERE phone IS NOT NULL AND ${TODAY_IN_PAKISTAN}))::int AS asked_today`, [
            STORE_TIME_ZONE,
            STORE_TIME_ZONE,
          ]),
          Order.raw(
            `(COUNT(*) FILTER (WHERE phone IS NOT NULL AND ${TODAY_IN_PAKISTAN} AND confirmation_status = 'confirmed'))::int AS confirmed_today`,
            [STORE_TIME_ZONE, STORE_TIME_ZONE],
          ),
          Order.raw(
            "(COUNT(*) FILTER (WHERE status = 'Pending' AND confirmation_status = 'pending' AND phone IS NOT NULL))::int AS awaiting_confirmation",
          ),
        ) as unknown as Promise<{
        totalOrders: number;
        deliveredAmount: number;
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
    const { deliveredAmount, refundedAmount, toCollectAmount, cancelledAmount, askedToday, confirmedToday } =
      orderFigures;
    const revenue = revenueOf({
      deliveredPaisa: toPaisa(deliveredAmount),
      refundedPaisa: toPaisa(refundedAmount),
      toCollectPaisa: toPaisa(toCollectAmount),
      cancelledPaisa: toPaisa(cancelledAmount),
    });
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

function revenueOf(paisa: {
  deliveredPaisa: number;
  refundedPaisa: number;
  toCollectPaisa: number;
  cancelledPaisa: number;
}): Revenue {
  const collectedPaisa = paisa.deliveredPaisa - paisa.refundedPaisa;
  return {
    collected: collectedPaisa / 100,
    toCollect: paisa.toCollectPaisa / 100,
    cancelled: paisa.cancelledPaisa / 100,
    total: (collectedPaisa + paisa.toCollectPaisa) / 100,
  };
}
