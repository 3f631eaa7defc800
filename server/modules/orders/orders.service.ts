import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { ConflictError, NotFoundError, RuleViolationError } from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import { NOT_ENOUGH_STOCK } from "../cart/cart.service";
import { PAYMENT_METHOD, type OrderStatus } from "./order-values";
import { orderListQuerySchema, orderStatusSchema, placeOrderSchema } from "./orders.schemas";

export type OrderAddress = { street: string; city: string; state: string; zipCode: string; country: string };

/** An order as clients see it (API.md "Order"). */
export type PublicOrder = {
  _id: string;
  user: { _id: string | null; name: string; email: string };
  items: { product: { _id: string | null; name: string; imageUrl: string }; quantity: number; price: number }[];
  address: OrderAddress;
  totalPrice: number;
  status: OrderStatus;
  paymentMethod: string;
  createdAt: string;
  updatedAt: string;
};

export type Viewer = { _id: string; role: string };

export type OrderList = {
  orders: PublicOrder[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
  meta: { count: number; totalAmount: number };
};

export type DashboardFigures = {
  totalOrders: number;
  totalProducts: number;
  /** Sum of order totals, Cancelled orders excluded (RULINGS). */
  totalRevenue: number;
  pendingOrders: number;
  latestOrders: PublicOrder[];
};

type OrderRow = {
  id: string;
  userId: string | null;
  customerName: string;
  customerEmail: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  totalPrice: number;
  status: OrderStatus;
  paymentMethod: string;
  createdAt: Date;
  updatedAt: Date;
};

type OrderItemRow = {
  orderId: string;
  productId: string | null;
  productName: string;
  productImageUrl: string;
  quantity: number;
  unitPrice: number;
};

/** Rupees to paisa and back: totals are added up in whole paisa, never in floating rupees. */
const toPaisa = (rupees: number) => Math.round(rupees * 100);

/** Revenue counts every order that was not cancelled (RULINGS "Money and totals"). */
const REVENUE_SQL = "COALESCE(SUM(total_price) FILTER (WHERE status <> 'Cancelled'), 0)";

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
      const user = await trx("users").where({ id: userId }).forKeyShare().first("name", "email");
      if (!user) throw new NotFoundError("User not found");
      const cart = await trx("carts").where({ userId }).forUpdate().first("id");
      if (idempotencyKey) {
        const earlier = await trx("orders").where({ userId, idempotencyKey }).first("id");
        if (earlier) return earlier.id as string;
      }
      const lines: { productId: string; quantity: number }[] = cart
        ? await trx("cart_items").where({ cartId: cart.id }).orderBy("productId").select("productId", "quantity")
        : [];
      if (lines.length === 0) throw new RuleViolationError("Your cart is empty");

      const products: { id: string; name: string; price: number; imageUrl: string; stock: number }[] = await trx("products")
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
      const [order] = await trx("orders")
        .insert({
          userId,
          customerName: user.name,
          customerEmail: user.email,
          ...address,
          totalPrice: (totalPaisa / 100).toFixed(2),
          status: "Pending",
          paymentMethod: PAYMENT_METHOD,
          idempotencyKey: idempotencyKey || null,
        })
        .returning("id");
      await trx("order_items").insert(
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
      await trx("cart_items").where({ cartId: cart.id }).delete();
      return order.id as string;
    });
    return (await this.loadOrders(this.db, (query) => query.where("orders.id", orderId)))[0]!;
  }

  /** The owner's or an admin's view of an order; to anyone else it does not exist. */
  async getOrder(viewer: Viewer, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const [order] = await this.loadOrders(this.db, (query) => {
      query.where("orders.id", orderId);
      if (viewer.role !== "admin") query.where("orders.userId", viewer._id);
    });
    if (!order) throw new NotFoundError("Order not found");
    return order;
  }

  /** The customer's own orders, newest first (`limit` for the profile's latest three). */
  /** The customer's own orders: the same list, page, limit, status filter and meta as an admin's (RULINGS). */
  async listMyOrders(userId: string, input: unknown = {}): Promise<OrderList> {
    return this.listOrders(input, userId);
  }

  /** Every order (admin) or one customer's, newest first, with the count and the revenue of all that match. */
  async listOrders(input: unknown, customerId?: string): Promise<OrderList> {
    const { page, limit, status } = validateInput(orderListQuerySchema, input);
    const filter = (query: Knex.QueryBuilder) => {
      if (customerId) query.where("orders.userId", customerId);
      return status ? query.where("orders.status", status) : query;
    };
    const [orders, totals] = await Promise.all([
      this.loadOrders(this.db, (query) => filter(query).limit(limit).offset((page - 1) * limit)),
      filter(this.db("orders"))
        .first(this.db.raw("COUNT(*)::int AS count"), this.db.raw(`${REVENUE_SQL} AS total_amount`)) as Promise<{
        count: number;
        totalAmount: number;
      }>,
    ]);
    return {
      orders,
      pagination: { page, limit, total: totals.count, totalPages: Math.ceil(totals.count / limit) },
      meta: { count: totals.count, totalAmount: totals.totalAmount },
    };
  }

  /**
   * Sets any of the four statuses from any state (SPEC section 4). Cancelling returns the stock
   * in the same transaction; leaving Cancelled claims it again, refused when it is gone.
   */
  async updateStatus(orderId: string, input: unknown): Promise<PublicOrder> {
    const { status } = validateInput(orderStatusSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await trx("orders").where({ id: orderId }).forUpdate().first("status");
      if (!order) throw new NotFoundError("Order not found");
      const wasCancelled = order.status === "Cancelled";
      const willBeCancelled = status === "Cancelled";
      if (!wasCancelled && willBeCancelled) await returnStock(trx, orderId);
      if (wasCancelled && !willBeCancelled) await claimStockAgain(trx, orderId);
      await trx("orders").where({ id: orderId }).update({ status, updatedAt: trx.fn.now() });
    });
    return (await this.loadOrders(this.db, (query) => query.where("orders.id", orderId)))[0]!;
  }

  /** The admin dashboard's figures, each computed by PostgreSQL (no order is loaded to count). */
  async dashboardFigures(): Promise<DashboardFigures> {
    const [orderFigures, productFigures, latestOrders] = await Promise.all([
      this.db("orders").first(
        this.db.raw("COUNT(*)::int AS total_orders"),
        this.db.raw(`${REVENUE_SQL} AS total_revenue`),
        this.db.raw("(COUNT(*) FILTER (WHERE status = 'Pending'))::int AS pending_orders"),
      ) as Promise<{ totalOrders: number; totalRevenue: number; pendingOrders: number }>,
      this.db("products").first(this.db.raw("COUNT(*)::int AS total_products")) as Promise<{ totalProducts: number }>,
      this.loadOrders(this.db, (query) => query.limit(5)),
    ]);
    return { ...orderFigures, ...productFigures, latestOrders };
  }

  /** Orders (newest first) and their items: two queries, whatever the number of orders. */
  private async loadOrders(db: Knex, narrow: (query: Knex.QueryBuilder) => void): Promise<PublicOrder[]> {
    const query = db("orders").select("orders.*").orderBy([
      { column: "orders.createdAt", order: "desc" },
      { column: "orders.id", order: "desc" },
    ]);
    narrow(query);
    const rows: OrderRow[] = await query;
    if (rows.length === 0) return [];
    const items: OrderItemRow[] = await db("order_items")
      .whereIn(
        "orderId",
        rows.map((row) => row.id),
      )
      .orderBy([{ column: "orderId" }, { column: "position" }]);
    const itemsByOrder = new Map<string, OrderItemRow[]>();
    for (const item of items) {
      const list = itemsByOrder.get(item.orderId);
      if (list) list.push(item);
      else itemsByOrder.set(item.orderId, [item]);
    }
    return rows.map((row) => toPublicOrder(row, itemsByOrder.get(row.id) ?? []));
  }
}

function toPublicOrder(row: OrderRow, items: OrderItemRow[]): PublicOrder {
  return {
    _id: row.id,
    user: { _id: row.userId, name: row.customerName, email: row.customerEmail },
    items: items.map((item) => ({
      product: { _id: item.productId, name: item.productName, imageUrl: item.productImageUrl },
      quantity: item.quantity,
      price: item.unitPrice,
    })),
    address: { street: row.street, city: row.city, state: row.state, zipCode: row.zipCode, country: row.country },
    totalPrice: row.totalPrice,
    status: row.status,
    paymentMethod: row.paymentMethod,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

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
  const items: { productId: string | null; productName: string; quantity: number }[] = await trx("order_items")
    .where({ orderId })
    .select("productId", "productName", "quantity");
  const gone = items.filter((item) => item.productId === null);
  if (gone.length > 0) {
    throw new ConflictError(`Cannot restore this order: ${gone.map((item) => item.productName).join(", ")} is no longer sold`);
  }
  const products: { id: string; stock: number }[] = await trx("products")
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
    throw new ConflictError(`Cannot restore this order: not enough stock for ${short.map((item) => item.productName).join(", ")}`);
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
