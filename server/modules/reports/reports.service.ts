import type { Database } from "../../db/database";
import { countAllProducts } from "../catalog/stock";
import { Order } from "../orders/order.model";
import type { PublicOrder } from "../orders/order.shape";
import { REVENUE_SQL, readOrders } from "../orders/orders.service";

export type DashboardFigures = {
  totalOrders: number;
  totalProducts: number;
  /** Sum of order totals, Cancelled orders left out (docs/product.md, "Orders"). */
  totalRevenue: number;
  pendingOrders: number;
  /** Pending orders not yet confirmed by phone: the calls to make before anything ships. */
  unconfirmedOrders: number;
  latestOrders: PublicOrder[];
};

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
        ) as unknown as Promise<{
        totalOrders: number;
        totalRevenue: number;
        pendingOrders: number;
        unconfirmedOrders: number;
      }>,
      countAllProducts(this.db),
      readOrders(this.db, (query) => query.limit(DASHBOARD_LATEST_ORDERS)),
    ]);
    return { ...orderFigures, totalProducts, latestOrders };
  }
}
