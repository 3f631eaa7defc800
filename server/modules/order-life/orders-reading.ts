import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { shipmentsOf } from "../fulfilment/shipment-events";
import type { Order } from "../orders/order.model";
import type { OrderListMeta, PublicOrder } from "../orders/order.shape";
import { orderListQuerySchema } from "../orders/orders.schemas";
import { REVENUE_SQL, readOrderRecords, type OrderQuery } from "../orders/orders.service";
import { Order as OrderModel } from "../orders/order.model";
import { returnRefusal } from "../orders/return-values.shared";
import { screenshotSent } from "../payments/payment-screenshots";
import { refundsOf } from "../payments/refunds";
import { LIFE_COLUMNS, lifeStatesOf, takeLife, type LifeColumns } from "./order-life";
import { refusalOf, type LifeEvent } from "./order-life.shared";
import { lifeView } from "./order-life-view.shared";
import { type LifeRefusal } from "./order-life-refusals.shared";
import { systemClock, type Clock } from "../shared/clock";
import { NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { validateInput } from "../shared/validation";

export type { PublicOrder };

export type Viewer = { _id: string; role: string };

export type OrderList = { orders: PublicOrder[]; pagination: Pagination; meta: OrderListMeta };

/**
 * Orders as their customers, the admins and the API read them: the orders' rows with their
 * parcel, their payment's screenshot and refund, and what their life offers now
 * (order-life.shared.ts). What changes an order is in the flows (server/flows/), each a run of
 * the order's life; the admin desk's lists are in order-desk.ts, the dashboard's figures in the
 * reports module.
 */
export class OrdersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Why the order's life refuses this event now, in its words (a page that offers the event says
   * why not), or null when it is allowed. The order must be one the caller already read.
   */
  async refusal(orderId: string, event: LifeEvent): Promise<LifeRefusal | null> {
    const state = (await lifeStatesOf(this.db, [orderId])).get(orderId);
    return state ? refusalOf(state, event, this.clock()) : null;
  }

  /** Why the customer cannot ask for a return of this order now, or null when they can (docs/product.md, "Returns"). */
  returnRefusal(order: PublicOrder): string | null {
    return returnRefusal(order, this.clock());
  }

  /** The owner's or an admin's view of an order; to anyone else it does not exist. */
  async getOrder(viewer: Viewer, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const [order] = await readOrders(
      this.db,
      (query) => {
        query.where("orders.id", orderId);
        if (viewer.role !== "admin") query.where("orders.userId", viewer._id);
      },
      this.clock(),
    );
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
      readOrders(
        this.db,
        (query) =>
          filter(query)
            .limit(limit)
            .offset((page - 1) * limit),
        this.clock(),
      ),
      filter(OrderModel.query(this.db))
        .first()
        .select(OrderModel.raw("COUNT(*)::int AS count"), OrderModel.raw(`${REVENUE_SQL} AS total_amount`))
        .castTo<{ count: number; totalAmount: number }>() as unknown as Promise<{ count: number; totalAmount: number }>,
    ]);
    return {
      orders,
      pagination: paginationOf(page, limit, totals.count),
      meta: { count: totals.count, totalAmount: totals.totalAmount },
    };
  }
}

/** Orders (newest first) with their items, returns, parcel and life, in a few queries whatever their number. */
export async function readOrders(
  db: Knex,
  narrow: (query: OrderQuery) => void,
  now: Date = new Date(),
): Promise<PublicOrder[]> {
  return (await readOrderRows(db, narrow, now)).map((order) => order.toPublic());
}

/** One order as the API answers it (after a change, in or after the changing transaction). */
export async function readOrder(db: Knex, orderId: string, now: Date = new Date()): Promise<PublicOrder> {
  return (await readOrders(db, (query) => query.where("orders.id", orderId), now))[0]!;
}

/**
 * Orders as every page and answer shows them: the orders' rows with their parcel (fulfilment) and
 * whether a screenshot of the transfer was sent (payments), each read once for all the orders.
 */
export async function readOrderRows(
  db: Knex,
  narrow: (query: OrderQuery) => void,
  now: Date = new Date(),
): Promise<Order[]> {
  const orders = await readOrderRecords(db, (query) => {
    narrow(query);
    query.select(...LIFE_COLUMNS);
  });
  const ids = orders.map((order) => order.id);
  // One after another: `db` may be a transaction, whose one connection takes one query at a time.
  const shipments = await shipmentsOf(db, ids);
  const screenshots = await screenshotSent(db, ids);
  const refunds = await refundsOf(db, ids);
  for (const order of orders) {
    order.shipment = shipments.get(order.id) ?? null;
    order.hasPaymentScreenshot = screenshots.has(order.id);
    const life = takeLife(order as Order & LifeColumns);
    order.lifeView = { ...lifeView(life, Number(order.totalPrice), now), refund: refunds.get(order.id) ?? null };
  }
  return orders;
}
