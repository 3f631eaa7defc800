import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { CartItem } from "../cart/cart.model";
import { NOT_ENOUGH_STOCK } from "../cart/cart.service";
import { Product } from "../catalog/product.model";
import { applyDiscount, reclaimDiscount, type DiscountCodeGuard } from "../discounts/discounts.service";
import { systemClock, type Clock } from "../shared/clock";
import { ConflictError, NotFoundError, RuleViolationError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { fromPaisa, toPaisa } from "../shared/money.shared";
import { formatPakistaniMobile, normalisePakistaniMobile } from "../shared/phone.shared";
import { containsPattern } from "../shared/search";
import { validateInput } from "../shared/validation";
import type { MailContext } from "../mail/mail-layout";
import { outboxRow, queueMail } from "../mail/outbox";
import { queueDueStockAlerts } from "../catalog/stock-alerts.service";
import { NotConfirmedByPhoneError } from "./order-errors.shared";
import { cancelledByCustomerMail, newOrderMail, orderPlacedMail, orderStatusMail } from "./order-mails";
import {
  CANCEL_NOT_PENDING,
  CANCEL_TOO_LATE,
  PAYMENT_METHOD,
  STORE_TIME_ZONE,
  UNCONFIRMED_FILTER,
  isCancellableByCustomer,
  shortOrderId,
} from "./order-values.shared";
import { Order, OrderItem } from "./order.model";
import { OrderReturn } from "./order-return.model";
import type { OrderListMeta, PublicOrder } from "./order.shape";
import { ordersCsv } from "./orders-csv";
import {
  checkoutFormSchema,
  checkoutQuoteSchema,
  orderDeskQuerySchema,
  orderListQuerySchema,
  orderStatusFormSchema,
  orderStatusSchema,
  placeOrderSchema,
  type OrderDeskQuery,
} from "./orders.schemas";

export type { PublicOrder };

export type Viewer = { _id: string; role: string };

export type OrderList = { orders: PublicOrder[]; pagination: Pagination; meta: OrderListMeta };

/** How a customer has done with the store so far: orders delivered and orders cancelled. */
export type CustomerRecord = { delivered: number; cancelled: number };

/**
 * An order as the admin pages show it: what the API answers, plus who confirmed it by phone and
 * the customer's record. Never handed to a customer's page.
 */
export type DeskOrder = PublicOrder & { confirmedBy: string | null; customerRecord: CustomerRecord };

/** What the cart comes to at checkout with a discount code (docs/product.md, "Discount codes"). */
export type CheckoutQuote = {
  subtotal: number;
  discount: { code: string; amount: number } | null;
  totalPrice: number;
};

/** What placing an order takes, as validated. */
type CheckoutInput = {
  address: { street: string; city: string; state: string; zipCode: string; country: string };
  phone?: string | null;
  idempotencyKey?: string | null;
  discountCode?: string | null;
};

export type DeskOrderList = { orders: DeskOrder[]; pagination: Pagination; meta: OrderListMeta };

/** The filter of the admin order list, as validated (its slips and its export take the same). */
export type DeskFilter = Pick<OrderDeskQuery, "status" | "search" | "from" | "to">;

/** Packing slips printed at once for a filter: at most this many (the admin lists' own limit). */
export const SLIPS_MAX = 1000;

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

/** Revenue counts every order that was not cancelled (docs/product.md, "Orders"). */
const REVENUE_SQL = "COALESCE(SUM(total_price) FILTER (WHERE status <> 'Cancelled'), 0)";

/** The dashboard shows the five latest orders (docs/product.md, "Admin"). */
const DASHBOARD_LATEST_ORDERS = 5;

export class OrdersService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailContext,
    private readonly codeGuard: DiscountCodeGuard,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Whether the customer may still cancel this order themselves (docs/product.md, "Cancelling an order"). */
  isCancellable(order: { status: string; createdAt: string }): boolean {
    return isCancellableByCustomer(order, this.clock());
  }

  /**
   * Turns the cart into an order, in one transaction: the cart row is locked (so a double
   * submit waits, then finds its order or an empty cart); every product of the cart is locked
   * in id order (no deadlock between shoppers) and its stock claimed; prices are taken from
   * the products now and copied, with name and image, into the order; the cart is emptied.
   * The database's CHECK (stock >= 0) stands behind all of this. Round trips are what a checkout
   * under load waits for, so the reads are joined, every write is one statement and the answer
   * is made from what is at hand rather than read back.
   */
  async placeOrder(
    userId: string,
    input: unknown,
    options: { form?: boolean; client?: { ip: string } } = {},
  ): Promise<PublicOrder> {
    // The checkout page requires the mobile number; the API takes it if given (docs/product.md, "Orders").
    const { address, phone, idempotencyKey, discountCode } = validateInput(
      options.form ? checkoutFormSchema : placeOrderSchema,
      input,
    );
    const place = () => this.placeOrderTrying(userId, { address, phone, idempotencyKey, discountCode });
    // A code is limited against guessing (the pages and the API pass the client's address).
    return discountCode ? this.codeGuard.judge({ userId, ip: options.client?.ip }, place) : place();
  }

  private async placeOrderTrying(userId: string, input: CheckoutInput): Promise<PublicOrder> {
    const { address, phone, idempotencyKey, discountCode } = input;
    // A try whose cart changed while it waited for the cart's lock reads it again in a new
    // transaction (lockCheckout); it then holds the lock, so a second try is the most it takes.
    // One statement for the whole checkout, without a transaction (3 round trips), was tried
    // and measured slower under the bench's 50 shoppers (about a third more PostgreSQL CPU per
    // order). The likely cause: a statement that waited for a product row re-checks the newer
    // row (EvalPlanQual), and its UPDATE of stock meets rows changed since its snapshot, each
    // re-check setting up the statement's parts again, and that statement is large; here the
    // waits fall on the small reading statement, and the writes start after the locks.
    for (let tries = 1; ; tries += 1) {
      try {
        return await this.db.transaction((trx) =>
          this.placeOrderIn(trx, userId, { address, phone, idempotencyKey, discountCode }),
        );
      } catch (error) {
        if (!(error instanceof CartChangedMeanwhile)) throw error;
        if (tries >= CHECKOUT_TRIES) throw new ConflictError("Your cart changed while the order was being placed");
      }
    }
  }

  private async placeOrderIn(trx: Knex.Transaction, userId: string, input: CheckoutInput): Promise<PublicOrder> {
    const { address, phone, idempotencyKey, discountCode } = input;
    const { user, cart, fresh, earlierOrderId, lines } = await lockCheckout(trx, userId, idempotencyKey || "");
    if (!user) throw new NotFoundError("User not found");
    if (!fresh) throw new CartChangedMeanwhile();
    if (earlierOrderId) return (await this.loadOrders((query) => query.where("orders.id", earlierOrderId), trx))[0]!;
    const subtotalPaisa = lines.reduce((sum, line) => sum + toPaisa(line.price) * line.quantity, 0);
    // The code's rules, under its lock (docs/product.md, "Discount codes"), before any other rule
    // of the order, so that a code is always judged (and a failed one counted) the same way; a
    // refusal rolls everything back, so no order is made and the cart stays as it was.
    const discount = discountCode
      ? await applyDiscount(trx, { code: discountCode, userId, subtotalPaisa, now: this.clock(), lock: true })
      : null;
    // A line's product deleted meanwhile left the cart by cascade.
    if (!cart || lines.length === 0) throw new RuleViolationError("Your cart is empty");
    const short = lines.filter((line) => line.stock < line.quantity);
    if (short.length > 0) {
      throw new ConflictError(`${NOT_ENOUGH_STOCK} for ${short.map((line) => line.name).join(", ")}`);
    }
    // Without a number of its own the order takes the profile's, if that is a mobile number;
    // a number given fills an empty profile (written with the order, below), so the next
    // checkout is prefilled with it.
    const profilePhone = phone && !user.phone.trim() ? formatPakistaniMobile(phone) : null;

    const totalPrice = fromPaisa(subtotalPaisa - (discount?.amountPaisa ?? 0));
    // The id is made here so that the mails can name the order and everything is written at once.
    const order = {
      id: randomUUID(),
      userId,
      customerName: user.name,
      customerEmail: user.email,
      ...address,
      phone: phone ?? normalisePakistaniMobile(user.phone),
      totalPrice,
      idempotencyKey: idempotencyKey || null,
      discountCodeId: discount?.discountCodeId ?? null,
      discountCode: discount?.code ?? null,
      discountAmount: fromPaisa(discount?.amountPaisa ?? 0),
    };
    const items = lines.map((line, position) => ({
      productId: line.id,
      name: line.name,
      imageUrl: line.imageUrl,
      // The photo's files stay while this order shows them (migration 12).
      photoId: line.photoId,
      images: line.images ?? [],
      quantity: line.quantity,
      unitPrice: line.price,
      position,
    }));
    // The confirmation to the customer and the store's notice, written with the order.
    const mailOrder = {
      id: order.id,
      customerName: user.name,
      customerEmail: user.email,
      items: items.map((item) => ({ name: item.name, quantity: item.quantity, unitPrice: item.unitPrice })),
      subtotal: fromPaisa(subtotalPaisa),
      discount: discount ? { code: discount.code, amount: fromPaisa(discount.amountPaisa) } : null,
      totalPrice,
      address,
      phone: order.phone,
    };
    const mails = [orderPlacedMail(this.mail, mailOrder), newOrderMail(this.mail, mailOrder)].map(outboxRow);
    const times = await writeOrder(trx, { order, items, cartId: cart.id, mails, profilePhone });
    return {
      _id: order.id,
      user: { _id: userId, name: user.name, email: user.email },
      items: items.map((item) => ({
        product: { _id: item.productId, name: item.name, imageUrl: item.imageUrl, images: item.images },
        quantity: item.quantity,
        price: item.unitPrice,
      })),
      address: {
        street: address.street,
        city: address.city,
        state: address.state,
        zipCode: address.zipCode,
        country: address.country,
      },
      phone: order.phone,
      subtotal: fromPaisa(subtotalPaisa),
      discount: discount ? { code: discount.code, amount: fromPaisa(discount.amountPaisa) } : null,
      totalPrice,
      status: "Pending",
      paymentMethod: PAYMENT_METHOD,
      courier: null,
      trackingNumber: null,
      confirmedAt: null,
      deliveredAt: null,
      returns: [],
      createdAt: times.createdAt.toISOString(),
      updatedAt: times.updatedAt.toISOString(),
    };
  }

  /**
   * What the customer's cart comes to with a discount code, before the order is placed
   * (checkout's Apply): the same rules as placing the order, read without locks; the order
   * checks them again when it is placed. A refused code is a field error on `discountCode`.
   */
  async quoteCheckout(userId: string, input: unknown, client?: { ip: string }): Promise<CheckoutQuote> {
    const { discountCode } = validateInput(checkoutQuoteSchema, input);
    const quote = () => this.quoteCheckoutWith(userId, discountCode);
    return discountCode ? this.codeGuard.judge({ userId, ip: client?.ip }, quote) : quote();
  }

  private async quoteCheckoutWith(userId: string, discountCode: string | undefined): Promise<CheckoutQuote> {
    const lines = (await CartItem.query(this.db)
      .joinRelated("cart")
      .join("products", "products.id", "cartItems.productId")
      .where("cart.userId", userId)
      .select("products.price", "cartItems.quantity")) as unknown as { price: number; quantity: number }[];
    const subtotalPaisa = lines.reduce((sum, line) => sum + toPaisa(line.price) * line.quantity, 0);
    const discount = discountCode
      ? await applyDiscount(this.db, { code: discountCode, userId, subtotalPaisa, now: this.clock(), lock: false })
      : null;
    return {
      subtotal: fromPaisa(subtotalPaisa),
      discount: discount ? { code: discount.code, amount: fromPaisa(discount.amountPaisa) } : null,
      totalPrice: fromPaisa(subtotalPaisa - (discount?.amountPaisa ?? 0)),
    };
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
   * in the same transaction; leaving Cancelled claims it again, refused when it is gone. With
   * Shipped come the courier and the tracking number (docs/product.md, "Shipping an order"),
   * kept when the status changes later. The admin pages (`form`) require both for Shipped, and
   * ship an order not confirmed by phone only when `shipUnconfirmed` says the admin was asked.
   * Becoming Delivered records when (the 7 days of a return run from it); a delivered order
   * with a return that was not rejected stays Delivered (docs/product.md, "Returns"). Leaving
   * Cancelled takes a discount code's use again, as it takes the stock.
   */
  async updateStatus(orderId: string, input: unknown, options: { form?: boolean } = {}): Promise<PublicOrder> {
    const fields = validateInput(options.form ? orderStatusFormSchema : orderStatusSchema, input);
    const { status, courier, trackingNumber } = fields;
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await Order.query(trx)
        .findById(orderId)
        .forUpdate()
        .select(
          "id",
          "status",
          "confirmedAt",
          "userId",
          "discountCodeId",
          "discountCode",
          "customerName",
          "customerEmail",
          "courier",
          "trackingNumber",
        );
      if (!order) throw new NotFoundError("Order not found");
      if (order.status === "Delivered" && status !== "Delivered") await refuseWithReturns(trx, orderId);
      const askedTwice = "shipUnconfirmed" in fields && fields.shipUnconfirmed === true;
      if (options.form && status === "Shipped" && order.status !== "Shipped" && !order.confirmedAt && !askedTwice) {
        throw new NotConfirmedByPhoneError();
      }
      const wasCancelled = order.status === "Cancelled";
      const willBeCancelled = status === "Cancelled";
      if (!wasCancelled && willBeCancelled) await this.returnStock(trx, orderId);
      if (wasCancelled && !willBeCancelled) {
        await claimStockAgain(trx, orderId);
        await reclaimDiscount(trx, order);
      }
      await Order.query(trx)
        .findById(orderId)
        .patch({
          status,
          ...(status !== order.status ? { deliveredAt: status === "Delivered" ? this.clock() : null } : {}),
          ...(courier ? { courier } : {}),
          ...(trackingNumber ? { trackingNumber } : {}),
        });
      // The customer hears of Shipped (with courier and tracking number), Delivered and Cancelled.
      if (status !== order.status && status !== "Pending") {
        await queueMail(
          trx,
          orderStatusMail(
            this.mail,
            {
              ...order,
              courier: courier || order.courier,
              trackingNumber: trackingNumber || order.trackingNumber,
            },
            status,
          ),
        );
      }
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /**
   * The customer cancels their own order (docs/product.md, "Cancelling an order"): only while it
   * is Pending and younger than 2 hours (409 otherwise, with the reason); anyone else's order does
   * not exist for them (404), admins included, who change the status instead. The stock comes
   * back in the same transaction, as when an admin cancels.
   */
  async cancelOwnOrder(userId: string, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await Order.query(trx)
        .findById(orderId)
        .where("userId", userId)
        .forUpdate()
        .select("id", "status", "createdAt", "customerName", "customerEmail", "courier", "trackingNumber");
      if (!order) throw new NotFoundError("Order not found");
      if (order.status !== "Pending") throw new ConflictError(CANCEL_NOT_PENDING);
      if (!isCancellableByCustomer(order, this.clock())) throw new ConflictError(CANCEL_TOO_LATE);
      await this.returnStock(trx, orderId);
      await Order.query(trx).findById(orderId).patch({ status: "Cancelled" });
      await queueMail(trx, [
        orderStatusMail(this.mail, order, "Cancelled", { byCustomer: true }),
        cancelledByCustomerMail(this.mail, order),
      ]);
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /**
   * The order's units go back on the shelf; a product that was sold out now has its waiting
   * stock alerts sent, in this transaction (docs/product.md, "Back in stock").
   */
  private async returnStock(trx: Knex.Transaction, orderId: string) {
    const productIds = await returnStock(trx, orderId);
    if (productIds.length > 0) await queueDueStockAlerts(trx, this.mail, productIds);
  }

  /**
   * Records that the store confirmed a Pending order with its customer by phone, and which admin
   * did (docs/product.md, "Confirming an order by phone"). A second confirmation changes nothing;
   * an order that is no longer Pending is refused (409).
   */
  async confirmOrder(orderId: string, admin: { _id: string; name: string }): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await Order.query(trx).findById(orderId).forUpdate().select("status", "confirmedAt");
      if (!order) throw new NotFoundError("Order not found");
      if (order.status !== "Pending") throw new ConflictError("Only pending orders can be confirmed");
      if (order.confirmedAt) return;
      await Order.query(trx)
        .findById(orderId)
        .patch({ confirmedAt: Order.fn.now() as unknown as Date, confirmedBy: admin._id, confirmedByName: admin.name });
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /** Undoes a confirmation made by mistake, while the order is still Pending (the admin pages only). */
  async undoConfirmation(orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await Order.query(trx).findById(orderId).forUpdate().select("status", "confirmedAt");
      if (!order) throw new NotFoundError("Order not found");
      if (order.status !== "Pending") {
        throw new ConflictError("A confirmation can be undone only while the order is pending");
      }
      if (!order.confirmedAt) return;
      await Order.query(trx).findById(orderId).patch({ confirmedAt: null, confirmedBy: null, confirmedByName: null });
    });
    return (await this.loadOrders((query) => query.where("orders.id", orderId)))[0]!;
  }

  /**
   * The admin order list (docs/product.md, "Finding and exporting orders"): filtered by status
   * (or the Pending orders not yet confirmed), a search term and a range of days in Pakistan;
   * each order with who confirmed it and its customer's record.
   */
  async listDeskOrders(input: unknown): Promise<DeskOrderList> {
    const { page, limit, ...filter } = validateInput(orderDeskQuerySchema, input);
    const [orders, totals] = await Promise.all([
      this.loadOrderRows((query) =>
        deskFilter(query, filter)
          .limit(limit)
          .offset((page - 1) * limit),
      ),
      deskFilter(Order.query(this.db), filter)
        .first()
        .select(Order.raw("COUNT(*)::int AS count"), Order.raw(`${REVENUE_SQL} AS total_amount`))
        .castTo<{ count: number; totalAmount: number }>() as unknown as Promise<{ count: number; totalAmount: number }>,
    ]);
    return {
      orders: await this.withDeskDetails(orders),
      pagination: paginationOf(page, limit, totals.count),
      meta: { count: totals.count, totalAmount: totals.totalAmount },
    };
  }

  /** One order for the admin pages, with who confirmed it and its customer's record. */
  async getDeskOrder(orderId: string): Promise<DeskOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const [order] = await this.withDeskDetails(await this.loadOrderRows((query) => query.where("orders.id", orderId)));
    if (!order) throw new NotFoundError("Order not found");
    return order;
  }

  /**
   * The orders to print packing slips for: those of the admin list's filter, Cancelled ones
   * left out (nothing is sent for them), newest first, at most SLIPS_MAX; `total` says how many matched.
   */
  async slipOrders(input: unknown): Promise<{ orders: PublicOrder[]; total: number }> {
    const { page: _page, limit: _limit, ...filter } = validateInput(orderDeskQuerySchema, input);
    const notCancelled = <Q extends OrderQuery>(query: Q): Q => {
      deskFilter(query, filter).whereNot("orders.status", "Cancelled");
      return query;
    };
    const [orders, total] = await Promise.all([
      this.loadOrders((query) => notCancelled(query).limit(SLIPS_MAX)),
      notCancelled(Order.query(this.db)).resultSize(),
    ]);
    return { orders, total };
  }

  /**
   * Every order of the admin list's filter as CSV (docs/product.md, "Finding and exporting
   * orders"): one row per order, dates in Pakistan's time, items and address as text made in SQL.
   */
  async exportCsv(input: unknown): Promise<string> {
    const { page: _page, limit: _limit, ...filter } = validateInput(orderDeskQuerySchema, input);
    const rows = (await deskFilter(Order.query(this.db), filter)
      .modify("newestFirst")
      .select(
        "orders.id",
        Order.raw("to_char(orders.created_at AT TIME ZONE ?, 'YYYY-MM-DD HH24:MI') AS placed_at", [STORE_TIME_ZONE]),
        "orders.customerName",
        "orders.customerEmail",
        "orders.phone",
        "orders.street",
        "orders.city",
        "orders.state",
        "orders.zipCode",
        "orders.country",
        "orders.totalPrice",
        "orders.status",
        "orders.courier",
        "orders.trackingNumber",
        Order.raw(
          `(SELECT string_agg(product_name || ' × ' || quantity, '; ' ORDER BY position)
              FROM order_items WHERE order_items.order_id = orders.id) AS items_text`,
        ),
      )) as unknown as (Order & { placedAt: string; itemsText: string | null })[];
    return ordersCsv(
      rows.map((row) => ({
        number: `#${shortOrderId(row.id)}`,
        date: row.placedAt,
        customer: row.customerName,
        email: row.customerEmail,
        phone: formatPakistaniMobile(row.phone),
        city: row.city,
        address: [row.street, row.city, `${row.state} ${row.zipCode}`.trim(), row.country].filter(Boolean).join(", "),
        items: row.itemsText ?? "",
        total: String(row.totalPrice),
        status: row.status,
        courier: row.courier ?? "",
        trackingNumber: row.trackingNumber ?? "",
      })),
    );
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
          Order.raw("(COUNT(*) FILTER (WHERE status = 'Pending' AND confirmed_at IS NULL))::int AS unconfirmed_orders"),
        ) as unknown as Promise<{
        totalOrders: number;
        totalRevenue: number;
        pendingOrders: number;
        unconfirmedOrders: number;
      }>,
      Product.query(this.db).resultSize(),
      this.loadOrders((query) => query.limit(DASHBOARD_LATEST_ORDERS)),
    ]);
    return { ...orderFigures, totalProducts, latestOrders };
  }

  /** Orders (newest first) and their items: two queries, whatever the number of orders. */
  private async loadOrders(narrow: (query: OrderQuery) => void, db: Knex = this.db): Promise<PublicOrder[]> {
    return (await this.loadOrderRows(narrow, db)).map((order) => order.toPublic());
  }

  private async loadOrderRows(narrow: (query: OrderQuery) => void, db: Knex = this.db): Promise<Order[]> {
    const query = Order.query(db)
      .modify("newestFirst")
      .withGraphFetched("[items(inCartOrder), returns(oldestFirst).items(inOrder)]");
    narrow(query);
    return query;
  }

  /**
   * Adds who confirmed each order and its customer's record, counted by PostgreSQL in one query
   * for the whole page. A customer is the account; orders whose account was deleted count
   * together by their email.
   */
  private async withDeskDetails(orders: Order[]): Promise<DeskOrder[]> {
    if (orders.length === 0) return [];
    const userIds = [...new Set(orders.flatMap((order) => (order.userId ? [order.userId] : [])))];
    const orphanEmails = [
      ...new Set(orders.flatMap((order) => (order.userId ? [] : [order.customerEmail.toLowerCase()]))),
    ];
    const records = (await Order.query(this.db)
      .select(
        Order.raw("COALESCE(user_id::text, lower(customer_email)) AS customer_key"),
        Order.raw("(COUNT(*) FILTER (WHERE status = 'Delivered'))::int AS delivered"),
        Order.raw("(COUNT(*) FILTER (WHERE status = 'Cancelled'))::int AS cancelled"),
      )
      .where((query) => {
        query.whereIn("userId", userIds);
        if (orphanEmails.length > 0) {
          query.orWhere((orphans) =>
            orphans.whereNull("userId").whereIn(Order.raw("lower(customer_email)"), orphanEmails),
          );
        }
      })
      .groupByRaw("1")) as unknown as ({ customerKey: string } & CustomerRecord)[];
    const byKey = new Map(records.map((record) => [record.customerKey, record]));
    return orders.map((order) => {
      const record = byKey.get(order.userId ?? order.customerEmail.toLowerCase());
      return {
        ...order.toPublic(),
        confirmedBy: order.confirmedAt ? order.confirmedByName : null,
        customerRecord: { delivered: record?.delivered ?? 0, cancelled: record?.cancelled ?? 0 },
      };
    });
  }
}

/**
 * The admin list's filter on an orders query (docs/product.md, "Finding and exporting orders").
 * Days are whole days in Pakistan, both ends included. A search term matches any part of the
 * customer's name or email, the order number (the characters the store shows, or the whole id),
 * or the mobile number as the store writes it (0300-1234567, so "0300 123", "1234567" and
 * "+92 300 1234567" all find it).
 */
function deskFilter<Q extends OrderQuery>(query: Q, filter: DeskFilter): Q {
  const { status, search, from, to } = filter;
  if (status === UNCONFIRMED_FILTER) query.where("orders.status", "Pending").whereNull("orders.confirmedAt");
  else if (status) query.where("orders.status", status);
  if (from) query.whereRaw("orders.created_at >= (?::date)::timestamp AT TIME ZONE ?", [from, STORE_TIME_ZONE]);
  if (to) query.whereRaw("orders.created_at < (?::date + 1)::timestamp AT TIME ZONE ?", [to, STORE_TIME_ZONE]);
  if (search) {
    const pattern = containsPattern(search);
    query.where((matches) => {
      matches.where("orders.customerName", "ilike", pattern).orWhere("orders.customerEmail", "ilike", pattern);
      const number = /^#?([0-9a-f]{4,8})$/i.exec(search);
      if (number) matches.orWhereRaw("right(orders.id::text, 8) LIKE ?", [`%${number[1]!.toLowerCase()}%`]);
      if (isUuid(search)) matches.orWhere("orders.id", search.toLowerCase());
      const digits = phoneDigits(search);
      if (digits) matches.orWhereRaw("('0' || substr(orders.phone, 4)) LIKE ?", [`%${digits}%`]);
    });
  }
  return query;
}

/** The digits of a search term that looks like (part of) a mobile number, written the local way (03…). */
function phoneDigits(term: string): string | null {
  if (!/^\+?[\d -]+$/.test(term)) return null;
  let digits = term.replace(/\D/g, "");
  if (term.startsWith("+")) {
    if (!digits.startsWith("92")) return null;
    digits = `0${digits.slice(2)}`;
  }
  return digits.length >= 4 ? digits : null;
}

type OrderQuery = ReturnType<typeof Order.query>;

/**
 * A delivered order whose watches came back, or are on their way back, keeps its status: its
 * returns are counted against it (docs/product.md, "Returns"). Only rejected returns let it move.
 */
async function refuseWithReturns(trx: Knex.Transaction, orderId: string) {
  const returned = await OrderReturn.query(trx).where({ orderId }).whereNot("status", "Rejected").first().select("id");
  if (returned) throw new ConflictError("This order has a return, so it stays Delivered");
}

/**
 * The order's units go back on the shelf (products deleted since are skipped). The products are
 * locked first, in id order, as checkout and un-cancelling lock them: the UPDATE alone takes its
 * row locks in whatever order its plan visits them, and could deadlock with a checkout of the
 * same watches (seen once in tests/integration/races, "cancel and un-cancel at once", as a 500).
 * Answers the ids of the products that were sold out before (their stock alerts are due now).
 */
async function returnStock(trx: Knex.Transaction, orderId: string): Promise<string[]> {
  await Product.query(trx)
    .whereIn("id", OrderItem.query(trx).where({ orderId }).whereNotNull("productId").select("productId"))
    .orderBy("id")
    .forUpdate()
    .select("id");
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `UPDATE products SET stock = products.stock + returned.quantity, updated_at = now()
       FROM (SELECT product_id, SUM(quantity)::int AS quantity FROM order_items
              WHERE order_id = ? AND product_id IS NOT NULL GROUP BY product_id) AS returned
      WHERE products.id = returned.product_id
      RETURNING products.id, products.stock - returned.quantity AS was`,
    [orderId],
  );
  return rows.filter((row) => Number((row as { was?: number }).was) === 0).map((row) => row.id);
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

/**
 * Checkout's reads in one round trip, under their locks: the customer (key-share), then the
 * cart (for update), then the lines' products (for update, in id order, so shoppers never
 * deadlock), and the order an Idempotency-Key already made. The customer comes first: the
 * order's reference to the customer needs this lock anyway, and an admin deleting the customer
 * takes the two in the same order (user, then cart through the cascade); taken after the cart
 * it deadlocked with such a deletion. Each lock follows from the row before it (the cart is
 * found through the locked customer, the lines through the locked cart), so PostgreSQL cannot
 * take them in another order.
 *
 * One statement reads with one snapshot, taken before it waits for a lock: a cart changed by
 * a transaction that committed while this one waited (a second tab's checkout, a line added)
 * would be read as it was. Every change to a cart also writes its row (CartService's lockCart,
 * a deleted product's note, checkout's `touched` below), so the cart row's version as locked
 * (xmin of the newest row) against the one the snapshot sees tells: `fresh` false means read
 * again, in a new transaction, where the snapshot is taken after that commit.
 */
async function lockCheckout(trx: Knex.Transaction, userId: string, idempotencyKey: string) {
  const { rows } = await trx.raw<{ rows: CheckoutRow[] }>(
    `WITH customer AS MATERIALIZED (
       SELECT id, name, email, phone FROM users WHERE id = :userId FOR KEY SHARE
     ), cart AS MATERIALIZED (
       SELECT id, xmin::text AS version FROM carts WHERE user_id = (SELECT id FROM customer) FOR UPDATE
     ), lines AS MATERIALIZED (
       SELECT p.id, p.name, p.price, p.image_url, p.photo_id, p.images, p.stock, line.quantity
         FROM cart_items AS line JOIN products AS p ON p.id = line.product_id
        WHERE line.cart_id = (SELECT id FROM cart)
        ORDER BY p.id
          FOR UPDATE OF p
     )
     SELECT customer.name AS "customerName", customer.email AS "customerEmail", customer.phone AS "customerPhone",
            cart.id AS "cartId",
            cart.version = (SELECT xmin::text FROM carts WHERE carts.id = cart.id) AS fresh,
            (SELECT orders.id FROM orders
              WHERE :idempotencyKey <> '' AND orders.user_id = customer.id AND orders.idempotency_key = :idempotencyKey)
              AS "earlierOrderId",
            lines.id, lines.name, lines.price, lines.image_url AS "imageUrl", lines.photo_id AS "photoId", lines.images,
            lines.stock, lines.quantity
       FROM customer LEFT JOIN cart ON true LEFT JOIN lines ON cart.id IS NOT NULL
      ORDER BY lines.id`,
    { userId, idempotencyKey },
  );
  const first = rows[0];
  if (!first) return { user: undefined, cart: undefined, fresh: true, earlierOrderId: null, lines: [] };
  return {
    user: { name: first.customerName, email: first.customerEmail, phone: first.customerPhone },
    cart: first.cartId ? { id: first.cartId } : undefined,
    // No cart: nothing was read that could be stale.
    fresh: first.cartId === null || first.fresh === true,
    earlierOrderId: first.earlierOrderId,
    lines: rows
      .filter((row) => row.id !== null)
      .map((row): CartLine => ({
        id: row.id!,
        name: row.name!,
        price: row.price!,
        imageUrl: row.imageUrl!,
        photoId: row.photoId,
        images: row.images,
        stock: row.stock!,
        quantity: row.quantity!,
      })),
  };
}

type CartLine = Pick<Product, "id" | "name" | "price" | "imageUrl" | "photoId" | "images" | "stock"> & {
  quantity: number;
};

type CheckoutRow = {
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  cartId: string | null;
  fresh: boolean | null;
  earlierOrderId: string | null;
  id: string | null;
  name: string | null;
  price: number | null;
  imageUrl: string | null;
  photoId: string | null;
  images: Product["images"];
  stock: number | null;
  quantity: number | null;
};

/** The cart changed while checkout waited for it: read again in a new transaction. */
class CartChangedMeanwhile extends Error {}

/** Tries of a checkout whose cart keeps changing under it before the answer is a plain 409. */
const CHECKOUT_TRIES = 5;

type NewOrder = {
  order: {
    id: string;
    userId: string;
    customerName: string;
    customerEmail: string;
    street: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
    phone: string | null;
    totalPrice: number;
    idempotencyKey: string | null;
  };
  items: {
    productId: string;
    name: string;
    imageUrl: string;
    photoId: string | null;
    images: unknown;
    quantity: number;
    unitPrice: number;
    position: number;
  }[];
  cartId: string;
  mails: ReturnType<typeof outboxRow>[];
  /** The number the order gave, for a profile that has none (null: the profile is left as it is). */
  profilePhone: string | null;
};

/**
 * Checkout's writes in one statement, one round trip whatever the number of lines: the stock
 * taken (the caller has locked the products in id order and checked it is there), the order,
 * its items, the cart emptied (and its row written, which tells a checkout of the same cart that
 * waited for it to read again: see lockCheckout), the two mails queued, and the profile's empty
 * phone filled. Data-modifying WITH queries run together
 * and the items' reference to the new order is checked at the end of the statement (PostgreSQL
 * manual, "Data-Modifying Statements in WITH"). Answers the order's times as the database set them.
 */
async function writeOrder(trx: Knex.Transaction, { order, items, cartId, mails, profilePhone }: NewOrder) {
  const { rows } = await trx.raw<{ rows: { createdAt: Date; updatedAt: Date }[] }>(
    `WITH taken AS (
       UPDATE products SET stock = products.stock - line.quantity, updated_at = now()
         FROM jsonb_to_recordset(:items::jsonb) AS line(product_id uuid, quantity int)
        WHERE products.id = line.product_id
     ), placed AS (
       INSERT INTO orders (id, user_id, customer_name, customer_email, street, city, state, zip_code, country,
                           phone, total_price, status, payment_method, idempotency_key,
                           discount_code_id, discount_code, discount_amount)
       VALUES (:id, :userId, :customerName, :customerEmail, :street, :city, :state, :zipCode, :country,
               :phone, :totalPrice, 'Pending', :paymentMethod, :idempotencyKey,
               :discountCodeId, :discountCode, :discountAmount)
       RETURNING created_at, updated_at
     ), lines AS (
       INSERT INTO order_items (order_id, product_id, product_name, product_image_url, photo_id, product_images,
                                quantity, unit_price, position)
       SELECT :id, line.product_id, line.name, line.image_url, line.photo_id, line.images, line.quantity,
              line.unit_price, line.position
         FROM jsonb_to_recordset(:items::jsonb) AS line(product_id uuid, name text, image_url text, photo_id uuid,
                                                         images jsonb, quantity int, unit_price numeric, position int)
     ), emptied AS (
       DELETE FROM cart_items WHERE cart_id = :cartId
     ), touched AS (
       UPDATE carts SET updated_at = now() WHERE id = :cartId
     ), profiled AS (
       UPDATE users SET phone = :profilePhone, updated_at = now()
        WHERE id = :userId AND :profilePhone::text IS NOT NULL AND btrim(phone) = ''
     ), mailed AS (
       INSERT INTO outbox (kind, recipient, subject, text_body, html_body, headers, secret)
       SELECT mail.kind, mail.recipient, mail.subject, mail.text_body, mail.html_body, mail.headers, mail.secret
         FROM jsonb_to_recordset(:mails::jsonb) AS mail(kind text, recipient text, subject text, text_body text,
                                                        html_body text, headers jsonb, secret boolean)
     )
     SELECT created_at AS "createdAt", updated_at AS "updatedAt" FROM placed`,
    {
      ...order,
      paymentMethod: PAYMENT_METHOD,
      cartId,
      profilePhone,
      items: JSON.stringify(
        items.map((item) => ({
          product_id: item.productId,
          name: item.name,
          image_url: item.imageUrl,
          photo_id: item.photoId,
          images: item.images,
          quantity: item.quantity,
          unit_price: item.unitPrice,
          position: item.position,
        })),
      ),
      mails: JSON.stringify(
        mails.map((mail) => ({
          kind: mail.kind,
          recipient: mail.recipient,
          subject: mail.subject,
          text_body: mail.textBody,
          html_body: mail.htmlBody,
          headers: mail.headers,
          secret: mail.secret,
        })),
      ),
    },
  );
  return rows[0]!;
}
