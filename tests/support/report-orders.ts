import fc from "fast-check";
import type { Database } from "../../server/db/database";

/**
 * Orders for the reports' kept-figures tests (server/modules/reports/report-rollups.test.ts):
 * three watches, orders written as a desk, a courier and a refund leave them, and fast-check's
 * arbitraries of orders, later changes and ranges. Times are Karachi's (UTC+5).
 */

export const karachi = (wallClock: string) => new Date(`${wallClock}+05:00`);
export const address = { street: "1 Mall Road", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const WATCHES = ["Alpha", "Beta", "Gamma"];

export type OrderSpec = {
  createdAt: Date;
  outcome: "Pending" | "Shipped" | "Delivered" | "Cancelled" | "Returned";
  transfer: boolean;
  verified: boolean;
  phone: boolean;
  answer: "pending" | "confirmed" | "cancelled";
  answerMinutes: number;
  city: string;
  courier: string | null;
  discount: boolean;
  lines: { product: number; quantity: number; unitPrice: number }[];
  returned: "none" | "Requested" | "Received";
};

/** An order of a Pending cash-on-delivery sale of one Alpha in Lahore, with the fields given. */
export const orderSpec = (createdAt: Date, fields: Partial<OrderSpec> = {}): OrderSpec => ({
  createdAt,
  outcome: "Pending",
  transfer: false,
  verified: false,
  phone: true,
  answer: "pending",
  answerMinutes: 5,
  city: "Lahore",
  courier: null,
  discount: false,
  lines: [{ product: 0, quantity: 1, unitPrice: 1000 }],
  returned: "none",
  ...fields,
});

/** A later change to an order: what the admin desk, the courier sync or a refund writes. */
export type Change = { order: number; kind: "delivered" | "cancelled" | "verified" | "refund" | "product-deleted" };

/** The store's orders and watches, on one test database. */
export class ReportOrders {
  /** The three watches' ids, in the order Alpha, Beta, Gamma. */
  products: string[] = [];

  private constructor(
    private readonly db: Database,
    private readonly first10: string,
  ) {}

  static async on(db: Database): Promise<ReportOrders> {
    const first10 = (await db("discount_codes").where({ code: "FIRST10" }).first("id")).id as string;
    return new ReportOrders(db, first10);
  }

  /** No orders, no kept days, and three watches. */
  async fresh(): Promise<void> {
    await this.db.raw("TRUNCATE orders, products, report_rolled_days, report_dirty_days CASCADE");
    await this.db.raw(
      "TRUNCATE report_day_money, report_day_outcomes, report_day_products, report_month_products, report_month_products_through, report_day_confirmations, report_day_confirmation_waits, report_day_discounts, report_day_returns",
    );
    this.products = (
      await this.db("products")
        .insert(
          WATCHES.map((name, index) => ({
            name,
            brand: index === 1 ? "Casio" : "Seiko",
            description: `${name} watch`,
            category: "Men",
            stock: 5,
            price: 1000,
          })),
        )
        .returning("id")
    ).map((row: { id: string }) => row.id);
  }

  /** Writes the order, its lines and its return as the store would have them; answers its id. */
  async place(spec: OrderSpec): Promise<string> {
    const status = spec.outcome === "Returned" ? "Cancelled" : spec.outcome;
    const goods = spec.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
    const discount = spec.discount ? 100 : 0;
    const total = goods - discount;
    const verified = spec.transfer && spec.verified;
    const confirmed = spec.phone && spec.answer !== "pending";
    const [row] = await this.db("orders")
      .insert({
        customerName: "Bilal",
        customerEmail: "bilal@example.com",
        ...address,
        city: spec.city,
        createdAt: spec.createdAt,
        totalPrice: total,
        status,
        phone: spec.phone ? "+923001234567" : null,
        courier: spec.courier,
        paymentMethod: spec.transfer ? "Bank Transfer" : "Cash on Delivery",
        paymentStatus: spec.transfer ? (verified ? "verified" : "awaiting") : "on-delivery",
        paymentReference: spec.transfer ? "FT1" : null,
        paymentSubmittedAt: verified ? spec.createdAt : null,
        paymentVerifiedAt: verified ? spec.createdAt : null,
        paymentVerifiedAmount: verified ? total : null,
        outcomeKind: spec.outcome === "Returned" ? "returned" : null,
        outcomeReason: spec.outcome === "Returned" ? "Refused at the door" : null,
        outcomeAt: spec.outcome === "Returned" ? spec.createdAt : null,
        cancelledByCustomer: status === "Cancelled" && spec.answer === "cancelled",
        confirmationStatus: spec.phone ? spec.answer : "pending",
        confirmationBy: confirmed ? "customer" : null,
        confirmationChannel: confirmed ? (spec.answer === "confirmed" ? "whatsapp" : "link") : null,
        confirmationAt: confirmed ? new Date(spec.createdAt.getTime() + spec.answerMinutes * 60_000 + 17_000) : null,
        discountCodeId: spec.discount ? this.first10 : null,
        discountCode: spec.discount ? "FIRST10" : null,
        discountAmount: discount,
      })
      .returning("id");
    await this.db("order_items").insert(
      spec.lines.map((line, position) => ({
        orderId: row.id,
        productId: this.products[line.product],
        productName: WATCHES[line.product],
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        position,
      })),
    );
    if (spec.returned !== "none") {
      await this.db("order_returns").insert({
        orderId: row.id,
        reason: "Wrong item",
        status: spec.returned,
        refundAmount: Math.min(total, 500),
        refundMethod: spec.returned === "Received" ? "Cash" : null,
        createdAt: new Date(spec.createdAt.getTime() + 86_400_000),
      });
    }
    return row.id as string;
  }

  /** Applies the change to one of the orders (its number taken modulo theirs). */
  async apply(ids: string[], change: Change): Promise<void> {
    const id = ids[change.order % ids.length]!;
    if (change.kind === "delivered") await this.db("orders").where({ id }).update({ status: "Delivered" });
    if (change.kind === "cancelled") await this.db("orders").where({ id }).update({ status: "Cancelled" });
    if (change.kind === "verified") {
      await this.db("orders")
        .where({ id, paymentMethod: "Bank Transfer" })
        .update({
          paymentStatus: "verified",
          paymentSubmittedAt: this.db.fn.now(),
          paymentVerifiedAt: this.db.fn.now(),
          paymentVerifiedAmount: this.db.ref("total_price"),
        });
    }
    if (change.kind === "refund") {
      await this.db("order_returns").where({ orderId: id }).update({ status: "Received", refundMethod: "Cash" });
    }
    if (change.kind === "product-deleted")
      await this.db("products")
        .where({ id: this.products[change.order % 3] })
        .delete();
  }
}

/** A moment from 1 September to `now`, with the month ends' late evenings likely. */
const momentArbitrary = (now: Date) =>
  fc.oneof(
    fc.integer({ min: Date.parse("2026-09-01T00:00:00+05:00"), max: now.getTime() }).map((ms) => new Date(ms)),
    fc.constantFrom(
      karachi("2026-09-30T23:30:00"),
      karachi("2026-10-31T23:30:00"),
      karachi("2026-11-01T00:10:00"),
      karachi("2026-10-01T00:05:00"),
    ),
  );

/** Any order placed from 1 September to `now`: its outcome, payment, confirmation, city, courier, code and lines. */
export const orderArbitrary = (now: Date): fc.Arbitrary<OrderSpec> =>
  fc.record({
    createdAt: momentArbitrary(now),
    outcome: fc.constantFrom("Pending", "Shipped", "Delivered", "Cancelled", "Returned"),
    transfer: fc.boolean(),
    verified: fc.boolean(),
    phone: fc.boolean(),
    answer: fc.constantFrom("pending", "confirmed", "cancelled"),
    answerMinutes: fc.integer({ min: 1, max: 600 }),
    city: fc.constantFrom("Lahore", "lahore ", "Karachi", "Quetta"),
    courier: fc.constantFrom(null, "TCS", "Leopards"),
    discount: fc.boolean(),
    lines: fc.array(
      fc.record({
        product: fc.integer({ min: 0, max: 2 }),
        quantity: fc.integer({ min: 1, max: 3 }),
        unitPrice: fc.constantFrom(999.5, 1000, 2450.25),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    returned: fc.constantFrom("none", "none", "Requested", "Received"),
  });

const DAY_MS = 86_400_000;
const dayOf = (moment: Date) => new Date(moment.getTime() + 5 * 3_600_000).toISOString().slice(0, 10);

/** A range within the orders' days up to `now` (a previous period reaching back before them included). */
export const rangeArbitrary = (now: Date) =>
  fc
    .tuple(fc.integer({ min: Date.parse("2026-09-01T12:00:00Z"), max: now.getTime() }), fc.integer({ min: 0, max: 80 }))
    .map(([start, days]) => ({
      from: dayOf(new Date(start)),
      to: dayOf(new Date(Math.min(start + days * DAY_MS, now.getTime()))),
    }));

export const changeArbitrary: fc.Arbitrary<Change> = fc.record({
  order: fc.nat(),
  kind: fc.constantFrom("delivered", "cancelled", "verified", "refund", "product-deleted"),
});
