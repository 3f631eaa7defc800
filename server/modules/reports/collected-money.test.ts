import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { ReportsService } from "./reports.service";

/**
 * "Collected" (RULINGS.md, fifth wave): delivered cash-on-delivery orders and verified advance
 * payments, less refunds, the same figure on the dashboard and in the sales report. The store
 * below is written by hand; every order is placed on 10 October 2026 in Karachi:
 *
 * | order                                   | total | collected | to collect | cancelled |
 * | transfer verified, still Pending        |  3000 |      3000 |            |           |
 * | transfer submitted, Pending             |  2500 |           |       2500 |           |
 * | transfer rejected, Cancelled            |  1800 |           |            |      1800 |
 * | transfer verified, then Cancelled       |  1200 |           |            |      1200 |
 * | transfer verified, Delivered, 1000 back |  4000 |      3000 |            |           |
 * | cash on delivery, Delivered             |  1000 |      1000 |            |           |
 * | cash on delivery, Shipped               |   700 |           |        700 |           |
 *
 * Collected 7000, to collect 3200, revenue 10,200 over 5 orders not cancelled (2040 each on
 * average), 2 cancelled worth 3000.
 */

let database: TestDatabase;
let reports: ReportsService;

const placed = new Date("2026-10-10T12:00:00+05:00");
const verifiedAt = new Date("2026-10-10T15:00:00+05:00");

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  reports = new ReportsService(db, () => new Date("2026-10-20T10:00:00Z"));
  const order = async (fields: Record<string, unknown>) => {
    const [row] = await db("orders")
      .insert({
        customerName: "Bilal",
        customerEmail: "bilal@example.com",
        street: "2 Shahrah-e-Faisal",
        city: "Karachi",
        state: "Sindh",
        zipCode: "75400",
        country: "Pakistan",
        createdAt: placed,
        ...fields,
      })
      .returning("id");
    return row.id as string;
  };
  const transfer = (paymentStatus: string, totalPrice: number) => ({
    paymentMethod: "Bank Transfer",
    paymentStatus,
    totalPrice,
    paymentReference: paymentStatus === "awaiting" ? null : "FT-2026-1010",
    ...(paymentStatus === "verified" ? { paymentVerifiedAmount: totalPrice, paymentVerifiedAt: verifiedAt } : {}),
  });
  await order({ ...transfer("verified", 3000), status: "Pending" });
  await order({ ...transfer("submitted", 2500), status: "Pending" });
  await order({ ...transfer("rejected", 1800), paymentRejectedReason: "No such transfer", status: "Cancelled" });
  await order({ ...transfer("verified", 1200), status: "Cancelled" });
  const returned = await order({ ...transfer("verified", 4000), status: "Delivered" });
  await db("order_returns").insert({
    orderId: returned,
    reason: "Damaged or defective",
    status: "Received",
    refundAmount: 1000,
    refundMethod: "Bank transfer",
    createdAt: new Date("2026-10-15T10:00:00+05:00"),
  });
  await order({ totalPrice: 1000, status: "Delivered" });
  await order({ totalPrice: 700, status: "Shipped" });
});

afterAll(async () => {
  await database.drop();
});

describe("collected money", () => {
  it("counts a verified advance payment as collected, before delivery too, on the dashboard", async () => {
    const { revenue, totalOrders } = await reports.dashboardFigures();
    expect(totalOrders).toBe(7);
    expect(revenue).toEqual({ collected: 7000, toCollect: 3200, cancelled: 3000, total: 10200 });
  });

  it("gives the sales report the dashboard's figures, on the day and over the period", async () => {
    const report = await reports.report("sales", { from: "2026-10-01", to: "2026-10-31" });
    const expected = {
      orders: 5,
      revenue: 10200,
      averageOrderValue: 2040,
      collected: 7000,
      toCollect: 3200,
      cancelledOrders: 2,
      cancelled: 3000,
    };
    expect(report.totals).toEqual(expected);
    expect(report.series.find((point) => point.period === "2026-10-10")).toEqual({
      period: "2026-10-10",
      ...expected,
    });
  });

  it("puts each method's revenue in the payments report, a delivered transfer's included", async () => {
    const report = await reports.report("payments", { from: "2026-10-01", to: "2026-10-31" });
    expect(report.series.map(({ method, orders, revenue }) => [method, orders, revenue])).toEqual([
      ["Cash on Delivery", 2, 1700],
      // Verified 3000, submitted 2500, delivered 4000 less the 1000 refunded.
      ["Bank Transfer", 3, 8500],
    ]);
  });
});
