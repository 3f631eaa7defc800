/**
 * GET /api/v1/reports/{name} (docs/api.md, "Reports"): admins only, each report as {series,
 * totals, previous} in the document's shape (TestClient.api checks every answer against the
 * OpenAPI document), October's days counted in Karachi, bad dates a 400 naming the field, an
 * unknown report a 404; the products of the products and deliveries reports a page at a time, with
 * `pagination`, and a bad page or limit a 400. The figures themselves are proved in server/modules/reports/reports.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;
const OCTOBER = "from=2026-10-01&to=2026-10-31";

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, {
    name: "Report Admin",
    email: "admin@reports.test",
    password: "adminpass1",
    role: "admin",
  });
  await insertUser(server, { name: "Shopper", email: "shopper@reports.test", password: "shopperpass1" });
  adminToken = await apiToken(client, "admin@reports.test", "adminpass1");
  customerToken = await apiToken(client, "shopper@reports.test", "shopperpass1");
  const order = { customerName: "Ayesha", customerEmail: "a@reports.test", street: "1 Mall Road", city: "Lahore" };
  const rest = { state: "Punjab", zipCode: "54000", country: "Pakistan" };
  await server.database.db("orders").insert([
    // 23:30 on 31 October in Karachi (18:30 UTC): October's.
    { ...order, ...rest, totalPrice: 2500, status: "Delivered", createdAt: new Date("2026-10-31T18:30:00Z") },
    // 00:10 on 1 November in Karachi (19:10 UTC on 31 October): November's.
    { ...order, ...rest, totalPrice: 9000, status: "Pending", createdAt: new Date("2026-10-31T19:10:00Z") },
    { ...order, ...rest, totalPrice: 1500, status: "Pending", createdAt: new Date("2026-10-02T10:00:00Z") },
    { ...order, ...rest, totalPrice: 700, status: "Delivered", createdAt: new Date("2026-09-20T10:00:00Z") },
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe("GET /reports/{name}", () => {
  it("answers the sales report to an admin: totals, the series by day and the period before", async () => {
    const answer = await client.api("GET", `/reports/sales?${OCTOBER}`, { token: adminToken });
    expect(answer.status).toBe(200);
    const report = answer.body.data;
    expect(report.totals).toEqual({
      orders: 2,
      revenue: 4000,
      averageOrderValue: 2000,
      collected: 2500,
      toCollect: 1500,
      cancelledOrders: 0,
      cancelled: 0,
    });
    expect(report.previous).toMatchObject({ orders: 1, revenue: 700, averageOrderValue: 700 });
    expect(report.series).toHaveLength(31);
    expect(report.series.at(-1)).toMatchObject({ period: "2026-10-31", orders: 1, revenue: 2500 });
    expect(report.previousPeriod).toEqual({ from: "2026-08-31", to: "2026-09-30" });
    const weekly = await client.api("GET", `/reports/sales?${OCTOBER}&by=week`, { token: adminToken });
    expect(weekly.body.data.series[0]).toMatchObject({ period: "2026-09-28", orders: 1, revenue: 1500 });
  });

  it("answers every report in its documented shape", async () => {
    for (const name of ["products", "deliveries", "confirmation", "payments", "stock"]) {
      const answer = await client.api("GET", `/reports/${name}?${OCTOBER}`, { token: adminToken });
      expect(answer.status, name).toBe(200);
      expect(Object.keys(answer.body.data), name).toEqual(expect.arrayContaining(["series", "totals", "previous"]));
    }
    const deliveries = (await client.api("GET", `/reports/deliveries?${OCTOBER}`, { token: adminToken })).body.data;
    expect(deliveries.totals).toMatchObject({ orders: 2, delivered: 1, open: 1, returnShippingCost: null });
  });

  it("refuses bad dates with 400 naming the field, an unknown report with 404", async () => {
    const bad = await client.api("GET", "/reports/sales?from=2026-10-31&to=2026-10-01", { token: adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: "to", message: "To must be on or after From" }]);
    const notADay = await client.api("GET", "/reports/payments?from=yesterday&to=2026-10-01", { token: adminToken });
    expect(notADay.status).toBe(400);
    expect(notADay.body.errors).toEqual([{ field: "from", message: "From must be a date (YYYY-MM-DD)" }]);
    expect((await client.api("GET", `/reports/refunds?${OCTOBER}`, { token: adminToken })).status).toBe(404);
  });

  it("pages the products of the products and deliveries reports, best sellers and most lines first", async () => {
    // June: five watches, the nth sold n times at Rs. 1,000 (one order each time, one line).
    const { db } = server.database;
    const ids = (
      await db("products")
        .insert(
          [1, 2, 3, 4, 5].map((n) => ({
            name: `Watch ${n}`,
            brand: "Seiko",
            description: "A watch",
            category: "Men",
            price: 1000,
            stock: 5,
          })),
        )
        .returning("id")
    ).map((row: { id: string }) => row.id);
    const order = { customerName: "Bilal", customerEmail: "b@reports.test", street: "2 Mall Road", city: "Lahore" };
    const rest = { state: "Punjab", zipCode: "54000", country: "Pakistan", totalPrice: 1000, status: "Pending" };
    for (const [index, productId] of ids.entries()) {
      for (let sale = 0; sale <= index; sale++) {
        const [row] = await db("orders")
          .insert({ ...order, ...rest, createdAt: new Date(`2026-06-${10 + sale}T10:00:00Z`) })
          .returning("id");
        await db("order_items").insert({
          orderId: row.id,
          productId,
          productName: `Watch ${index + 1}`,
          quantity: 1,
          unitPrice: 1000,
        });
      }
    }
    const JUNE = "from=2026-06-01&to=2026-06-30";

    const second = await client.api("GET", `/reports/products?${JUNE}&page=2&limit=2`, { token: adminToken });
    expect(second.status).toBe(200);
    expect(second.body.data.series.map((sold: { name: string; units: number }) => [sold.name, sold.units])).toEqual([
      ["Watch 3", 3],
      ["Watch 2", 2],
    ]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    // The totals, the brands and the slowest movers are the whole period's, whatever the page.
    expect(second.body.data.totals).toEqual({ units: 15, revenue: 15000, productsSold: 5 });
    expect(second.body.data.brands).toEqual([{ brand: "Seiko", units: 15, revenue: 15000 }]);

    const first = await client.api("GET", `/reports/products?${JUNE}`, { token: adminToken });
    expect(first.body.data.series).toHaveLength(5);
    expect(first.body.pagination).toEqual({ page: 1, limit: 50, total: 5, totalPages: 1 });

    const deliveries = await client.api("GET", `/reports/deliveries?${JUNE}&page=3&limit=2`, { token: adminToken });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.byProduct).toMatchObject([{ name: "Watch 1", orders: 1, open: 1 }]);
    expect(deliveries.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3 });
    expect(deliveries.body.data.totals).toMatchObject({ orders: 15, open: 15 });
  });

  it("refuses a bad page or limit with 400 naming the field", async () => {
    const tooMany = await client.api("GET", `/reports/products?${OCTOBER}&limit=201`, { token: adminToken });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ field: "limit", message: "Limit must be between 1 and 200" }]);
    const notAPage = await client.api("GET", `/reports/deliveries?${OCTOBER}&page=0`, { token: adminToken });
    expect(notAPage.status).toBe(400);
    expect(notAPage.body.errors).toEqual([{ field: "page", message: "Page must be at least 1" }]);
  });

  it("is for admins: 401 without a token, 403 for a customer", async () => {
    expect((await client.api("GET", `/reports/sales?${OCTOBER}`)).status).toBe(401);
    expect((await client.api("GET", `/reports/stock?${OCTOBER}`, { token: customerToken })).status).toBe(403);
  });
});
