import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { InvalidInputError, NotFoundError } from "../shared/errors.shared";
import { ReportsService } from "./reports.service";

/**
 * Every report's figures against a store written by hand, whose sums are worked out below
 * (docs/product.md, "Reports"). October 2026 is the period; its 31 days before (31 Aug to 30 Sep)
 * are the previous one. Times are Karachi's (UTC+5): an order at 23:30 on 31 October is October's
 * though it is 18:30 UTC; one at 00:10 on 1 November is November's though UTC still says 31
 * October; one at 00:05 on 1 October is October's though UTC says 30 September.
 */

let database: TestDatabase;
let reports: ReportsService;
const OCTOBER = { from: "2026-10-01", to: "2026-10-31" };

/** A moment given as Karachi's wall clock. */
const karachi = (wallClock: string) => new Date(`${wallClock}+05:00`);

const address = { street: "1 Mall Road", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  reports = new ReportsService(db, () => new Date("2026-11-05T10:00:00Z"));
  await db("order_rules").where({ id: 1 }).update({ parcelShippingCost: 250 });
  const [alpha, beta, gamma, delta] = (
    await db("products")
      .insert(
        [
          { name: "Alpha", brand: "Seiko", stock: 1, price: 1000 },
          { name: "Beta", brand: "Casio", stock: 0, price: 2000 },
          { name: "Gamma", brand: "Seiko", stock: 10, price: 1500 },
          { name: "Delta", brand: "Citizen", stock: 10, price: 900, reorderLevel: 12 },
        ].map((product) => ({ ...product, description: `${product.name} watch`, category: "Men" })),
      )
      .returning("id")
  ).map((row: { id: string }) => row.id);
  const first10 = await db("discount_codes").where({ code: "FIRST10" }).first("id");

  const order = async (
    fields: Record<string, unknown>,
    items: { productId: string; name: string; quantity: number; unitPrice: number }[],
  ) => {
    const [row] = await db("orders")
      .insert({ customerName: "Ayesha", customerEmail: "ayesha@example.com", city: "Lahore", ...address, ...fields })
      .returning("id");
    await db("order_items").insert(
      items.map((item, position) => ({
        orderId: row.id,
        productId: item.productId,
        productName: item.name,
        quantity: item.quantity,
        unitPrice: item.unitPrice,
        position,
      })),
    );
    return row.id as string;
  };
  const confirmed = (createdAt: Date, minutes: number, channel: string, by: string) => ({
    confirmationStatus: "confirmed",
    confirmationChannel: channel,
    confirmationBy: by,
    confirmationAt: new Date(createdAt.getTime() + minutes * 60_000),
  });

  const lastEvening = karachi("2026-10-31T23:30:00");
  await order(
    {
      createdAt: lastEvening,
      totalPrice: 2000,
      status: "Delivered",
      phone: "+923001234567",
      city: "lahore ",
      courier: "TCS",
      ...confirmed(lastEvening, 30, "whatsapp", "customer"),
    },
    [{ productId: alpha, name: "Alpha", quantity: 2, unitPrice: 1000 }],
  );
  await order(
    { createdAt: karachi("2026-11-01T00:10:00"), totalPrice: 5000, status: "Pending", phone: "+923001234568" },
    [{ productId: gamma, name: "Gamma", quantity: 1, unitPrice: 5000 }],
  );
  await order(
    {
      createdAt: karachi("2026-10-01T00:05:00"),
      totalPrice: 1350,
      discountCodeId: first10.id,
      discountCode: "FIRST10",
      discountAmount: 150,
      status: "Pending",
      phone: "+923001234569",
      city: "Karachi",
    },
    [{ productId: gamma, name: "Gamma", quantity: 1, unitPrice: 1500 }],
  );
  const midMonth = karachi("2026-10-15T12:00:00");
  await order(
    {
      createdAt: midMonth,
      totalPrice: 1000,
      status: "Cancelled",
      outcomeKind: "returned",
      outcomeReason: "Refused at the door",
      outcomeAt: karachi("2026-10-18T12:00:00"),
      phone: "+923001234570",
      courier: "Leopards",
      ...confirmed(midMonth, 90, "phone", "admin"),
    },
    [{ productId: alpha, name: "Alpha", quantity: 1, unitPrice: 1000 }],
  );
  await order(
    {
      createdAt: karachi("2026-10-15T13:00:00"),
      totalPrice: 3000,
      status: "Cancelled",
      cancelledByCustomer: true,
      phone: "+923001234571",
      city: "Karachi",
    },
    [{ productId: beta, name: "Beta", quantity: 1, unitPrice: 3000 }],
  );
  const refunded = await order(
    {
      createdAt: karachi("2026-10-20T10:00:00"),
      totalPrice: 4000,
      status: "Delivered",
      city: "Islamabad",
      courier: "TCS",
    },
    [{ productId: beta, name: "Beta", quantity: 2, unitPrice: 2000 }],
  );
  await db("order_returns").insert({
    orderId: refunded,
    reason: "Damaged or defective",
    status: "Received",
    refundAmount: 2000,
    refundMethod: "Cash",
    createdAt: karachi("2026-10-25T10:00:00"),
  });
  // The period before: 23:30 on 30 September is September's.
  await order({ createdAt: karachi("2026-09-30T23:30:00"), totalPrice: 500, status: "Delivered" }, [
    { productId: gamma, name: "Gamma", quantity: 1, unitPrice: 500 },
  ]);
  await db("stock_alerts").insert([
    { productId: beta, email: "one@example.com" },
    { productId: beta, email: "two@example.com" },
    { productId: alpha, email: "gone@example.com", state: "cancelled" },
  ]);
  // Delta sold nothing: the slowest mover, and its stock lasts.
  void delta;
});

afterAll(async () => {
  await database.drop();
});

describe("the sales report", () => {
  it("counts October's orders by their day in Karachi: revenue, collected, to collect, against September", async () => {
    const report = await reports.report("sales", OCTOBER);
    // Not cancelled: the 31st's (2000, delivered), the 1st's (1350, pending), the 20th's (4000
    // delivered, 2000 refunded). Revenue 2000 + 1350 + 2000 = 5350 over 3 orders.
    expect(report.totals).toEqual({
      orders: 3,
      revenue: 5350,
      averageOrderValue: 1783.33,
      collected: 4000,
      toCollect: 1350,
      cancelledOrders: 2,
      cancelled: 4000,
    });
    expect(report.previous).toEqual({
      orders: 1,
      revenue: 500,
      averageOrderValue: 500,
      collected: 500,
      toCollect: 0,
      cancelledOrders: 0,
      cancelled: 0,
    });
    expect(report.period).toEqual(OCTOBER);
    expect(report.previousPeriod).toEqual({ from: "2026-08-31", to: "2026-09-30" });
    expect(report.by).toBe("day");
    expect(report.series).toHaveLength(31);
    const day = (date: string) => report.series.find((point) => point.period === date);
    expect(day("2026-10-01")).toMatchObject({ orders: 1, revenue: 1350, toCollect: 1350 });
    expect(day("2026-10-31")).toMatchObject({ orders: 1, revenue: 2000, collected: 2000 });
    expect(day("2026-10-15")).toMatchObject({ orders: 0, revenue: 0, cancelledOrders: 2, cancelled: 4000 });
    expect(day("2026-10-02")).toMatchObject({ orders: 0, revenue: 0, averageOrderValue: 0 });
  });

  it("groups by month in Karachi's months", async () => {
    const report = await reports.report("sales", { from: "2026-09-01", to: "2026-10-31", by: "month" });
    expect(report.series.map((point) => [point.period, point.orders, point.revenue])).toEqual([
      ["2026-09-01", 1, 500],
      ["2026-10-01", 3, 5350],
    ]);
  });

  it("refuses dates that are not days, a period backwards, and an unknown report", async () => {
    const problems = async (input: unknown) => {
      const error = await reports.report("sales", input).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidInputError);
      return (error as InvalidInputError).fieldErrors;
    };
    expect(await problems({ from: "2026-02-30", to: "2026-03-01" })).toEqual({
      from: "From must be a date (YYYY-MM-DD)",
    });
    expect(await problems({ from: "2026-10-31", to: "2026-10-01" })).toEqual({ to: "To must be on or after From" });
    expect(await problems({ from: "2026-10-01" })).toEqual({ to: "Enter the last day (YYYY-MM-DD)" });
    expect(await problems({ from: "2020-01-01", to: "2026-10-01" })).toEqual({
      to: "A report covers at most 1098 days",
    });
    expect(await problems({ ...OCTOBER, by: "year" })).toEqual({ by: "By must be one of day, week, month" });
    await expect(reports.report("refunds", OCTOBER)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("covers the last 30 days in Karachi when no dates are given", async () => {
    const report = await reports.report("sales", {});
    expect(report.period).toEqual({ from: "2026-10-07", to: "2026-11-05" });
  });
});

describe("the products report", () => {
  it("adds up units and revenue per product and brand, and lists the slowest movers", async () => {
    const report = await reports.report("products", OCTOBER);
    expect(report.series.map(({ name, brand, units, revenue }) => ({ name, brand, units, revenue }))).toEqual([
      { name: "Beta", brand: "Casio", units: 2, revenue: 4000 },
      { name: "Alpha", brand: "Seiko", units: 2, revenue: 2000 },
      { name: "Gamma", brand: "Seiko", units: 1, revenue: 1500 },
    ]);
    expect(report.brands).toEqual([
      { brand: "Casio", units: 2, revenue: 4000 },
      { brand: "Seiko", units: 3, revenue: 3500 },
    ]);
    expect(report.slowestMovers.map(({ name, units }) => [name, units])).toEqual([
      ["Delta", 0],
      ["Gamma", 1],
      ["Alpha", 2],
      ["Beta", 2],
    ]);
    expect(report.totals).toEqual({ units: 5, revenue: 7500, productsSold: 3 });
    expect(report.previous).toEqual({ units: 1, revenue: 500, productsSold: 1 });
  });
});

describe("the deliveries report", () => {
  it("gives each order one outcome, per city, courier and product, and prices the returns to sender", async () => {
    const report = await reports.report("deliveries", OCTOBER);
    // Delivered: the 31st's and the 20th's; returned: the 15th's noon order; cancelled: the
    // 15th's afternoon one; open: the 1st's. One return of two known ends: 1/3. Out and back at
    // Rs. 250 each way: Rs. 500.
    expect(report.totals).toEqual({
      orders: 5,
      delivered: 2,
      returned: 1,
      cancelled: 1,
      open: 1,
      returnRate: 0.3333,
      returnShippingCost: 500,
    });
    expect(report.shippingCostEachWay).toBe(250);
    const rows = (groups: { name: string; orders: number; delivered: number; returned: number }[]) =>
      groups.map(({ name, orders, delivered, returned }) => [name, orders, delivered, returned]);
    expect(rows(report.byCity)).toEqual([
      ["Karachi", 2, 0, 0],
      ["Lahore", 2, 1, 1],
      ["Islamabad", 1, 1, 0],
    ]);
    expect(report.byCity[1]!.returnRate).toBe(0.5);
    expect(rows(report.byCourier)).toEqual([
      ["Not booked", 2, 0, 0],
      ["TCS", 2, 2, 0],
      ["Leopards", 1, 0, 1],
    ]);
    expect(rows(report.byProduct)).toEqual([
      ["Alpha", 2, 1, 1],
      ["Beta", 2, 1, 0],
      ["Gamma", 1, 0, 0],
    ]);
    expect(report.previous).toMatchObject({
      orders: 1,
      delivered: 1,
      returned: 0,
      returnRate: 0,
      returnShippingCost: 0,
    });
  });
});

describe("the confirmation report", () => {
  it("counts the answers of the orders asked to confirm and the median time to confirm", async () => {
    const report = await reports.report("confirmation", OCTOBER);
    // Asked (a mobile number): the 31st's (confirmed in 30 minutes), the 1st's (no answer), the
    // 15th's noon order (confirmed on the phone in 90), the 15th's afternoon one (cancelled by
    // its customer). Median of 30 and 90: 60.
    expect(report.totals).toEqual({
      asked: 4,
      confirmed: 2,
      cancelledByCustomer: 1,
      notAnswered: 1,
      confirmationRate: 0.5,
      medianMinutesToConfirm: 60,
    });
    expect(report.byChannel).toEqual([
      { channel: "phone", confirmed: 1 },
      { channel: "whatsapp", confirmed: 1 },
    ]);
    expect(report.series.find((point) => point.period === "2026-10-15")).toMatchObject({
      asked: 2,
      confirmed: 1,
      cancelledByCustomer: 1,
      notAnswered: 0,
    });
    expect(report.previous).toEqual({
      asked: 0,
      confirmed: 0,
      cancelledByCustomer: 0,
      notAnswered: 0,
      confirmationRate: 0,
      medianMinutesToConfirm: null,
    });
  });
});

describe("the payments and discounts report", () => {
  it("gives each payment method's orders and revenue, each code's uses and the refunds by reason", async () => {
    const report = await reports.report("payments", OCTOBER);
    expect(report.series).toEqual([
      { method: "Cash on Delivery", label: "Cash on Delivery", orders: 3, revenue: 5350 },
      // Every method the store offers has its row, with none of its orders too.
      { method: "Bank Transfer", label: "Bank transfer / Raast", orders: 0, revenue: 0 },
    ]);
    expect(report.discountCodes).toEqual([{ code: "FIRST10", uses: 1, amountGiven: 150 }]);
    expect(report.returnReasons).toEqual([{ reason: "Damaged or defective", returns: 1, received: 1, refunded: 2000 }]);
    expect(report.totals).toEqual({
      orders: 3,
      revenue: 5350,
      discountUses: 1,
      amountGiven: 150,
      returns: 1,
      refunded: 2000,
    });
    expect(report.previous).toEqual({
      orders: 1,
      revenue: 500,
      discountUses: 0,
      amountGiven: 0,
      returns: 0,
      refunded: 0,
    });
  });
});

describe("the stock report", () => {
  it("lists products at or below their reorder level with days of cover and waiting alerts", async () => {
    const report = await reports.report("stock", OCTOBER);
    // Sales of 2 to 31 October: Alpha 2 (its returned parcel is cancelled), Beta 2. Alpha's one
    // watch lasts 1 / (2 / 30) = 15 days. Gamma (10, level 2) is not low; Delta (10, level 12) is.
    expect(
      report.series.map(({ name, stock, reorderLevel, unitsSold, daysOfCover, waitingAlerts }) => ({
        name,
        stock,
        reorderLevel,
        unitsSold,
        daysOfCover,
        waitingAlerts,
      })),
    ).toEqual([
      { name: "Beta", stock: 0, reorderLevel: 2, unitsSold: 2, daysOfCover: 0, waitingAlerts: 2 },
      { name: "Alpha", stock: 1, reorderLevel: 2, unitsSold: 2, daysOfCover: 15, waitingAlerts: 0 },
      { name: "Delta", stock: 10, reorderLevel: 12, unitsSold: 0, daysOfCover: null, waitingAlerts: 0 },
    ]);
    expect(report.totals).toEqual({ lowStock: 3, outOfStock: 1, waitingAlerts: 2 });
    expect(report.salesWindow).toEqual({ from: "2026-10-02", to: "2026-10-31" });
    expect(report.previous).toBeNull();
  });
});

describe("the CSV downloads", () => {
  it("write a report's table with the export's rules: a formula typed as a name is made inert", async () => {
    const sales = await reports.reportCsv("sales", OCTOBER);
    const lines = sales
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Period,Orders,Revenue,Average order value,Collected,To collect,Cancelled orders,Cancelled amount",
    );
    expect(lines).toHaveLength(32);
    expect(lines).toContain("2026-10-31,1,2000,2000,2000,0,0,0");

    const { db } = database;
    const [order] = await db("orders")
      .insert({
        customerName: "Mallory",
        customerEmail: "m@example.com",
        city: "Lahore",
        ...address,
        totalPrice: 100,
        status: "Pending",
        createdAt: karachi("2025-01-10T10:00:00"),
      })
      .returning("id");
    await db("order_items").insert({
      orderId: order.id,
      productName: '=HYPERLINK("http://evil.example","x")',
      quantity: 1,
      unitPrice: 100,
    });
    const products = await reports.reportCsv("products", { from: "2025-01-10", to: "2025-01-10" });
    expect(products).toBe(
      '\uFEFFProduct,Brand,Units,Revenue\r\n"\'=HYPERLINK(""http://evil.example"",""x"")",,1,100\r\n',
    );
    await expect(reports.reportCsv("refunds", OCTOBER)).rejects.toBeInstanceOf(NotFoundError);
  });
});
