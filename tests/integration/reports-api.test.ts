/**
 * GET /api/v1/reports/{name} (docs/api.md, "Reports"): admins only, each report as {series,
 * totals, previous} in the document's shape (TestClient.api checks every answer against the
 * OpenAPI document), October's days counted in Karachi, bad dates a 400 naming the field, an
 * unknown report a 404. The figures themselves are proved in server/modules/reports/reports.test.ts.
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

  it("is for admins: 401 without a token, 403 for a customer", async () => {
    expect((await client.api("GET", `/reports/sales?${OCTOBER}`)).status).toBe(401);
    expect((await client.api("GET", `/reports/stock?${OCTOBER}`, { token: customerToken })).status).toBe(403);
  });
});
