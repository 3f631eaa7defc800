import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { systemClock, type Clock } from "../shared/clock";
import { NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { validateInput } from "../shared/validation";
import { isCancellableByCustomer } from "./order-values.shared";
import { Order } from "./order.model";
import type { OrderListMeta, PublicOrder } from "./order.shape";
import { orderListQuerySchema } from "./orders.schemas";
import { returnRefusal } from "./return-values.shared";
import { shipmentsOf } from "./shipment-events";

export type { PublicOrder };

export type Viewer = { _id: string; role: string };

export type OrderList = { orders: PublicOrder[]; pagination: Pagination; meta: OrderListMeta };

export type OrderQuery = ReturnType<typeof Order.query>;

/** Revenue counts every order that was not cancelled (docs/product.md, "Orders"). */
export const REVENUE_SQL = "COALESCE(SUM(total_price) FILTER (WHERE status <> 'Cancelled'), 0)";

/**
 * Orders as their customers and the API read them. What changes an order is in the flows
 * (server/flows/: checkout, cancellation, fulfilment, returns), which call this module's parts
 * in their transactions (order-life.ts, order-checkout.ts); the admin desk's lists are in
 * order-desk.ts, the dashboard's figures in the reports module.
 */
export class OrdersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Whether the customer may still cancel this order themselves (docs/product.md, "Cancelling an order"). */
  isCancellable(order: { status: string; createdAt: string }): boolean {
    return isCancellableByCustomer(order, this.clock());
  }

  /** Why the customer cannot ask for a return of this order now, or null when they can (docs/product.md, "Returns"). */
  returnRefusal(order: PublicOrder): string | null {
    return returnRefusal(order, this.clock());
  }

  /** The owner's or an admin's view of an order; to anyone else it does not exist. */
  async getOrder(viewer: Viewer, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const [order] = await readOrders(this.db, (query) => {
      query.where("orders.id", orderId);
      if (viewer.role !== "admin") query.where("orders.userId", viewer._id);
    });
    if (!order) throw new NotFoundError("Order not found");
    return order;
  }

  /** The customer's own orders: the same list, page, limit, status filter and meta as an admin's. */
  async listMyOrders(userId: string, input: unknown = {}): Promise<OrderList> {
    return this.listOrders(input, userId);
  }

  /** Every order (admin) or one customer's, newest first, with the count and the revenue of all that match. */
  async listOrders(input: unknown, customerId?: string): Promise<OrderList> {
    const { page, limit, status } = validateInput(orderListQuerySchema, input);
    const filter = <Q extends OrderQuery>(query: Q): Q => {
      if (customerId) query.where("orders.userId", customerId);
      if (status) query.where("orders.status", status);
      return query;
    };
    const [orders, totals] = await Promise.all([
      readOrders(this.db, (query) =>
        filter(query)
          .limit(limit)
          .offset((page - 1) * limit),
      ),
      filter(Order.query(this.db))
        .first()
        .select(Order.raw("COUNT(*)::int AS count"), Order.raw(`${REVENUE_SQL} AS total_amount`))
        .castTo<{ count: number; totalAmount: number }>() as unknown as Promise<{ count: number; totalAmount: number }>,
    ]);
    return {
      orders,
      pagination: paginationOf(page, limit, totals.count),
      meta: { count: totals.count, totalAmount: totals.totalAmount },
    };
  }
}

/** Orders (newest first) with their items and returns: two queries, whatever the number of orders. */
export async function readOrders(db: Knex, narrow: (query: OrderQuery) => void): Promise<PublicOrder[]> {
  return (await readOrderRows(db, narrow)).map((order) => order.toPublic());
}

/** One order as the API answers it (after a change, in or after the changing transaction). */
export async function readOrder(db: Knex, orderId: string): Promise<PublicOrder> {
  return (await readOrders(db, (query) => query.where("orders.id", orderId)))[0]!;
}

export async function readOrderRows(db: Knex, narrow: (query: OrderQuery) => void): Promise<Order[]> {
  const query = Order.query(db)
    .modify("newestFirst")
    .withGraphFetched("[items(inCartOrder), returns(oldestFirst).items(inOrder)]")
    // The screenshot's presence only, in the same query: its bytes are read where it is served.
    .select(
      "orders.*",
      Order.raw(
        "EXISTS (SELECT 1 FROM payment_screenshots WHERE payment_screenshots.order_id = orders.id) AS has_payment_screenshot",
      ),
    );
  narrow(query);
  const orders = await query;
  const shipments = await shipmentsOf(
    db,
    orders.map((order) => order.id),
  );
  for (const order of orders) order.shipment = shipments.get(order.id) ?? null;
  return orders;
}
