import type { Database } from "../../db/database";
import { countAllProducts } from "../catalog/stock";
import { Order } from "../orders/order.model";
import type { PublicOrder } from "../orders/order.shape";
import { REVENUE_SQL, readOrders } from "../orders/orders.service";
import { STORE_TIME_ZONE } from "../orders/order-values.shared";

export type DashboardFigures = {
  totalOrders: number;
  totalProducts: number;
  /** Sum of order totals, Cancelled orders left out (docs/product.md, "Orders"). */
  totalRevenue: number;
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

  /** The admin dashboard's figures. */
  async dashboardFigures(): Promise<DashboardFigures> {
    const [orderFigures, totalProducts, latestOrders] = await Promise.all([
      Order.query(this.db)
        .first()
        .select(
          Order.raw("COUNT(*)::int AS total_orders"),
          Order.raw(`${REVENUE_SQL} AS total_revenue`),
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
        totalRevenue: number;
        pendingOrders: number;
        unconfirmedOrders: number;
        askedToday: number;
        confirmedToday: number;
        awaitingConfirmation: number;
      }>,
      countAllProducts(this.db),
      readOrders(this.db, (query) => query.limit(DASHBOARD_LATEST_ORDERS)),
    ]);
    const { askedToday, confirmedToday, ...figures } = orderFigures;
    return {
      ...figures,
      confirmationToday: { asked: askedToday, confirmed: confirmedToday },
      totalProducts,
      latestOrders,
    };
  }
}
