import { fromPaisa, toPaisa } from "../shared/money.shared";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { formatPakistaniMobile } from "../shared/phone.shared";
import { containsPattern } from "../shared/search";
import { validateInput } from "../shared/validation";
import { STORE_TIME_ZONE, UNCONFIRMED_FILTER, shortOrderId } from "../orders/order-values.shared";
import {
  CONFIRMED_BY_ANSWER,
  CONFIRMED_BY_PAYMENT,
  NOT_CONFIRMED_REASON,
  type OrderReplyRecord,
  type OrderTextRecord,
} from "../confirmation/order-confirmation.shared";
import { Order } from "../orders/order.model";
import type { OrderListMeta, PublicOrder } from "../orders/order.shape";
import { ordersCsv } from "../orders/orders-csv";
import { phoneRecords } from "../confirmation/phone-record";
import { EMPTY_PHONE_RECORD, type PhoneRecord } from "../confirmation/phone-record.shared";
import { orderDeskQuerySchema, type OrderDeskQuery } from "./order-desk.schemas";
import { REVENUE_SQL, type OrderQuery } from "../orders/orders.service";
import { readOrderRows, readOrders } from "./orders-reading";

/** How a customer has done with the store so far: orders delivered and orders cancelled. */
export type CustomerRecord = { delivered: number; cancelled: number };

/**
 * An order as the admin pages show it: what the API answers, plus who confirmed it by phone, the
 * customer's record and its phone's record (null without a phone). Never handed to a customer's page.
 */
export type DeskOrder = PublicOrder & {
  confirmedBy: string | null;
  customerRecord: CustomerRecord;
  phoneRecord: PhoneRecord | null;
};

export type DeskOrderList = { orders: DeskOrder[]; pagination: Pagination; meta: OrderListMeta };

/** The filter of the admin order list, as validated (its slips and its export take the same). */
export type DeskFilter = Pick<OrderDeskQuery, "status" | "search" | "from" | "to" | "confirmation">;

/** Packing slips printed at once for a filter: at most this many (the admin lists' own limit). */
export const SLIPS_MAX = 1000;

/**
 * The admin's order desk (docs/product.md, "Finding and exporting orders"): the list with its
 * filter and search, one order with its details, packing slips and the CSV export. Reads only;
 * the desk's changes (status, confirmation) are the fulfilment flow's (server/flows/fulfilment.ts).
 */
export class OrderDeskService {
  constructor(private readonly db: Database) {}

  /**
   * The admin order list: filtered by status (or the Pending orders not yet confirmed), a search
   * term and a range of days in Pakistan; each order with who confirmed it and its customer's record.
   */
  async listDeskOrders(input: unknown): Promise<DeskOrderList> {
    const { page, limit, ...filter } = validateInput(orderDeskQuerySchema, input);
    const [orders, totals] = await Promise.all([
      readOrderRows(this.db, (query) =>
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
    const [order] = await this.withDeskDetails(
      await readOrderRows(this.db, (query) => query.where("orders.id", orderId)),
    );
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
      readOrders(this.db, (query) => notCancelled(query).limit(SLIPS_MAX)),
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
        "orders.discountAmount",
        Order.raw(
          `(SELECT COALESCE(SUM(refund_amount), 0) FROM order_returns
             WHERE order_returns.order_id = orders.id AND order_returns.status = 'Received') AS refunded_amount`,
        ),
        "orders.status",
        "orders.courier",
        "orders.trackingNumber",
        Order.raw(
          `(SELECT string_agg(product_name || ' × ' || quantity, '; ' ORDER BY position)
              FROM order_items WHERE order_items.order_id = orders.id) AS items_text`,
        ),
      )) as unknown as (Order & { placedAt: string; itemsText: string | null; refundedAmount: number })[];
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
        subtotal: String(fromPaisa(toPaisa(row.totalPrice) + toPaisa(row.discountAmount))),
        discount: String(row.discountAmount),
        total: String(row.totalPrice),
        refund: String(row.refundedAmount),
        status: row.status,
        courier: row.courier ?? "",
        trackingNumber: row.trackingNumber ?? "",
      })),
    );
  }

  /**
   * Adds who confirmed each order, its customer's record and its phone's record, each counted by
   * PostgreSQL in one query for the whole page. A customer is the account; orders whose account
   * was deleted count together by their email. A phone's record spans accounts and guests.
   */
  private async withDeskDetails(orders: Order[]): Promise<DeskOrder[]> {
    if (orders.length === 0) return [];
    const phones = phoneRecords(
      this.db,
      orders.flatMap((order) => (order.phone ? [order.phone] : [])),
    );
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
    const byPhone = await phones;
    return orders.map((order) => {
      const record = byKey.get(order.userId ?? order.customerEmail.toLowerCase());
      return {
        ...order.toPublic(),
        confirmedBy: order.confirmedAt ? order.confirmedByName : null,
        customerRecord: { delivered: record?.delivered ?? 0, cancelled: record?.cancelled ?? 0 },
        phoneRecord: order.phone ? (byPhone.get(order.phone) ?? EMPTY_PHONE_RECORD) : null,
      };
    });
  }

  /** Every text of the order and every reply it received, oldest first (the admin's order page). */
  async orderTexts(orderId: string): Promise<{ texts: OrderTextRecord[]; replies: OrderReplyRecord[] }> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    const [texts, replies] = await Promise.all([
      this.db("order_messages")
        .where({ order_id: orderId })
        .orderBy([{ column: "created_at" }, { column: "id" }]),
      this.db("order_message_replies")
        .where({ order_id: orderId })
        .orderBy([{ column: "received_at" }, { column: "id" }]),
    ]);
    return {
      texts: texts.map((text) => ({
        id: text.id,
        channel: text.channel,
        kind: text.kind,
        language: text.language,
        status: text.status,
        attempts: text.attempts,
        error: text.error,
        createdAt: iso(text.createdAt)!,
        sentAt: iso(text.sentAt),
        deliveredAt: iso(text.deliveredAt),
        readAt: iso(text.readAt),
        failedAt: iso(text.failedAt),
      })),
      replies: replies.map((reply) => ({
        id: reply.id,
        channel: reply.channel,
        body: reply.body,
        action: reply.action,
        receivedAt: iso(reply.receivedAt)!,
      })),
    };
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
  const { status, search, from, to, confirmation } = filter;
  if (confirmation === "pending") {
    query
      .where("orders.status", "Pending")
      .where("orders.confirmationStatus", "pending")
      .where("orders.paymentStatus", CONFIRMED_BY_ANSWER);
  } else if (confirmation === "confirmed" || confirmation === "cancelled") {
    query.where("orders.confirmationStatus", confirmation);
  } else if (confirmation === "not-answered") query.where("orders.cancelReason", NOT_CONFIRMED_REASON);
  if (status === UNCONFIRMED_FILTER) {
    query
      .where("orders.status", "Pending")
      .whereNull("orders.confirmedAt")
      .whereNot("orders.paymentStatus", CONFIRMED_BY_PAYMENT);
  } else if (status) query.where("orders.status", status);
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
