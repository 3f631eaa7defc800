import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { User } from "../accounts/user.model";
import { Cart, CartItem } from "../cart/cart.model";
import { NOT_ENOUGH_STOCK } from "../cart/cart.service";
import { Product } from "../catalog/product.model";
import { ConflictError, NotFoundError, RuleViolationError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { fromPaisa, toPaisa } from "../shared/money.shared";
import { validateInput } from "../shared/validation";
import { PAYMENT_METHOD } from "./order-values.shared";
import { Order, OrderItem } from "./order.model";
import type { OrderListMeta, PublicOrder } from "./order.shape";
import { orderListQuerySchema, orderStatusSchema, placeOrderSchema } from "./orders.schemas";

export type { PublicOrder };

export type Viewer = { _id: string; role: string };

export type OrderList = { orders: PublicOrder[]; pagination: Pagination; meta: OrderListMeta };

export type DashboardFigures = {
  totalOrders: number;
  totalProducts: number;
  /** Sum of order totals, Cancelled orders left out (docs/product.md, "Orders"). */
  totalRevenue: number;
  pendingOrders: number;
  latestOrders: PublicOrder[];
};

/** Revenue counts every order that was not cancelled (docs/product.md, "Orders"). */
const REVENUE_SQL = "COALESCE(SUM(total_price) FILTER (WHERE status <> 'Cancelled'), 0)";

/** The dashboard shows the five latest orders (docs/product.md, "Admin"). */
const DASHBOARD_LATEST_ORDERS = 5;

export class OrdersService {
  constructor(private readonly db: Database) {}

  /**
   * Turns the cart into an order, in one transaction: the cart row is locked (so a double
   * submit waits, then finds its order or an empty cart); every product of the cart is locked
   * in id order (no deadlock between shoppers) and its stock claimed; prices are taken from
   * the products now and copied, with name and image, into the order; the cart is emptied.
   * The database's CHECK (stock >= 0) stands behind all of this.
   */
  async placeOrder(userId: string, input: unknown): Promise<PublicOrder> {
    const { address, idempotencyKey } = validateInput(placeOrderSchema, input);
    const orderId = await this.db.transaction(async (trx) => {
      // The customer first, then the cart: the order's reference to the customer needs this lock
      // anyway, and an admin deleting the customer takes the two in the same order (user, then
      // cart through the cascade). Taken after the cart it deadlocked with such a deletion.
      const user = await User.query(trx).findById(userId).forKeyShare().select("name", "email");
      if (!user) throw new NotFoundError("User not found");
      const cart = await Cart.query(trx).where({ userId }).forUpdate().first().select("id");
      if (idempotencyKey) {
        const earlier = await Order.query(trx).where({ userId, idempotencyKey }).first().select("id");
        if (earlier) return earlier.id;
      }
      const lines = cart
        ? await CartItem.query(trx).where({ cartId: cart.id }).orderBy("productId").select("productId", "quantity")
        : [];
      if (!cart || lines.length === 0) throw new RuleViolationError("Your cart is empty");

      const products = await Product.query(trx)
        .whereIn(
          "id",
          lines.map((line) => line.productId),
        )
        .orderBy("id")
        .forUpdate()
        .select("id", "name", "price", "imageUrl", "stock");
      const byId = new Map(products.map((product) => [product.id, product]));
      const short = lines.filter((line) => (byId.get(line.productId)?.stock ?? 0) < line.quantity);
      if (short.length > 0) {
        const names = short.map((line) => byId.get(line.productId)?.name).filter(Boolean);
        throw new ConflictError(names.length > 0 ? `${NOT_ENOUGH_STOCK} for ${names.join(", ")}` : NOT_ENOUGH_STOCK);
      }
      await takeStock(trx, lines);

      const totalPaisa = lines.reduce((sum, line) => sum + toPaisa(byId.get(line.productId)!.price) * line.quantity, 0);
      const order = await Order.query(trx).insert({
        userId,
        customerName: user.name,
        customerEmail: user.email,
        ...address,
        totalPrice: fromPaisa(totalPaisa),
        status: "Pending",
        paymentMethod: PAYMENT_METHOD,
        idempotencyKey: idempotencyKey || null,
      });
      await OrderItem.query(trx).insert(
        lines.map((line, position) => {
          const product = byId.get(line.productId)!;
          return {
            orderId: order.id,
            productId: product.id,
            productName: product.name,
            productImageUrl: product.imageUrl,
            quantity: line.quantity,
            unitPrice: product.price,
            position,
          };
        }),
      );
      await CartItem.query(trx).where({ cartId: cart.id }).delete();
      return order.id;
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /** The owner's or an admin's view of an order; to anyone else it does not exist. */
  async getOrder(viewer: Viewer, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const [order] = await this.loadOrders((query) => {
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
      this.loadOrders((query) =>
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

  /**
   * Sets any of the four statuses from any state (docs/product.md, "Orders"). Cancelling returns the stock
   * in the same transaction; leaving Cancelled claims it again, refused when it is gone.
   */
  async updateStatus(orderId: string, input: unknown): Promise<PublicOrder> {
    const { status } = validateInput(orderStatusSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await Order.query(trx).findById(orderId).forUpdate().select("status");
      if (!order) throw new NotFoundError("Order not found");
      const wasCancelled = order.status === "Cancelled";
      const willBeCancelled = status === "Cancelled";
      if (!wasCancelled && willBeCancelled) await returnStock(trx, orderId);
      if (wasCancelled && !willBeCancelled) await claimStockAgain(trx, orderId);
      await Order.query(trx).findById(orderId).patch({ status });
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /** The admin dashboard's figures, each computed by PostgreSQL (no order is loaded to count). */
  async dashboardFigures(): Promise<DashboardFigures> {
    const [orderFigures, totalProducts, latestOrders] = await Promise.all([
      Order.query(this.db)
        .first()
        .select(
          Order.raw("COUNT(*)::int AS total_orders"),
          Order.raw(`${REVENUE_SQL} AS total_revenue`),
          Order.raw("(COUNT(*) FILTER (WHERE status = 'Pending'))::int AS pending_orders"),
        ) as unknown as Promise<{ totalOrders: number; totalRevenue: number; pendingOrders: number }>,
      Product.query(this.db).resultSize(),
      this.loadOrders((query) => query.limit(DASHBOARD_LATEST_ORDERS)),
    ]);
    return { ...orderFigures, totalProducts, latestOrders };
  }

  /** Orders (newest first) and their items: two queries, whatever the number of orders. */
  private async loadOrders(narrow: (query: OrderQuery) => void): Promise<PublicOrder[]> {
    const query = Order.query(this.db).modify("newestFirst").withGraphFetched("items(inCartOrder)");
    narrow(query);
    return (await query).map((order) => order.toPublic());
  }
}

type OrderQuery = ReturnType<typeof Order.query>;

/** The order's units go back on the shelf (products deleted since are skipped). */
async function returnStock(trx: Knex.Transaction, orderId: string) {
  await trx.raw(
    `UPDATE products SET stock = products.stock + returned.quantity, updated_at = now()
       FROM (SELECT product_id, SUM(quantity)::int AS quantity FROM order_items
              WHERE order_id = ? AND product_id IS NOT NULL GROUP BY product_id) AS returned
      WHERE products.id = returned.product_id`,
    [orderId],
  );
}

/** Un-cancelling claims the units again, under locks in id order, or refuses with the reason. */
async function claimStockAgain(trx: Knex.Transaction, orderId: string) {
  const items = await OrderItem.query(trx).where({ orderId }).select("productId", "productName", "quantity");
  const gone = items.filter((item) => item.productId === null);
  if (gone.length > 0) {
    throw new ConflictError(
      `Cannot restore this order: ${gone.map((item) => item.productName).join(", ")} is no longer sold`,
    );
  }
  const products = await Product.query(trx)
    .whereIn(
      "id",
      items.map((item) => item.productId!),
    )
    .orderBy("id")
    .forUpdate()
    .select("id", "stock");
  const stockById = new Map(products.map((product) => [product.id, product.stock]));
  const short = items.filter((item) => (stockById.get(item.productId!) ?? 0) < item.quantity);
  if (short.length > 0) {
    throw new ConflictError(
      `Cannot restore this order: not enough stock for ${short.map((item) => item.productName).join(", ")}`,
    );
  }
  await takeStock(
    trx,
    items.map((item) => ({ productId: item.productId!, quantity: item.quantity })),
  );
}

/**
 * Takes the units off the shelf in one statement, whatever the number of lines. The caller has
 * locked the products and checked that the stock is there.
 */
async function takeStock(trx: Knex.Transaction, lines: { productId: string; quantity: number }[]) {
  await trx.raw(
    `UPDATE products SET stock = products.stock - taken.quantity, updated_at = now()
       FROM unnest(?::uuid[], ?::int[]) AS taken(product_id, quantity)
      WHERE products.id = taken.product_id`,
    [lines.map((line) => line.productId), lines.map((line) => line.quantity)],
  );
}
