/**
 * The report pages (docs/product.md, "Reports"), as a browser without JavaScript sees them: the
 * sales report at /admin/reports with its SVG chart (title, description, axes in Rs. and dates)
 * and the table of the same numbers, each report's page, the period's GET form with a bad date
 * refused beside its field and the typed value kept, the products' lists a page at a time with plain
 * links, the CSV download, and the admin's only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../support/fixtures";
import type { TestClient } from "../support/http-client";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let admin: TestClient;
let customer: TestClient;
const OCTOBER = "from=2026-10-01&to=2026-10-31";

beforeAll(async () => {
  server = await startTestServer();
  await insertUser(server, {
    name: "Report Admin",
    email: "admin@report-pages.test",
    password: "adminpass1",
    role: "admin",
  });
  await insertUser(server, { name: "Shopper", email: "shopper@report-pages.test", password: "shopperpass1" });
  admin = await signedInClient(server.baseUrl, "admin@report-pages.test", "adminpass1");
  customer = await signedInClient(server.baseUrl, "shopper@report-pages.test", "shopperpass1");
  const order = { customerName: "Ayesha", customerEmail: "a@report-pages.test", street: "1 Mall Road", city: "Lahore" };
  const rest = { state: "Punjab", zipCode: "54000", country: "Pakistan" };
  await server.database.db("orders").insert([
    // 23:30 on 31 October in Karachi: October's last day.
    { ...order, ...rest, totalPrice: 12500, status: "Delivered", createdAt: new Date("2026-10-31T18:30:00Z") },
    { ...order, ...rest, totalPrice: 7300, status: "Pending", createdAt: new Date("2026-10-05T10:00:00Z") },
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe("the report pages", () => {
  it("open on the sales report: totals, an SVG chart with its title, description and axes, and the same numbers in a table", async () => {
    const page = await pageOf(admin, `/admin/reports?${OCTOBER}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Reports: Sales");
    expect(page.text).toMatch(/<svg[^>]*role="img"/);
    expect(page.text).toMatch(/<title id="[^"]+">Revenue by day<\/title>/);
    expect(page.text).toContain("Revenue (Rs.)");
    expect(page.text).toContain("Rs. 19,800");
    // The table's row of 31 October: one order of Rs. 12,500.
    expect(page.text).toMatch(
      /31 Oct 2026<\/div><\/td><td[^>]*><div[^>]*>1<\/div><\/td><td[^>]*><div[^>]*>Rs\. 12,500/,
    );
    expect(page.text).toContain(`href="/admin/reports/sales/export.csv?${OCTOBER.replace("&", "&amp;")}"`);
  });

  it("show every report, each with its chart", async () => {
    for (const [name, heading] of [
      ["products", "Reports: Products"],
      ["deliveries", "Reports: Deliveries"],
      ["confirmation", "Reports: Confirmation"],
      ["payments", "Reports: Payments and discounts"],
      ["stock", "Reports: Stock"],
    ]) {
      const page = await pageOf(admin, `/admin/reports/${name}?${OCTOBER}`);
      expect(page.status, name).toBe(200);
      expect(page.text, name).toContain(heading);
      expect(page.text, name).toContain("<desc");
    }
    expect((await pageOf(admin, `/admin/reports/refunds?${OCTOBER}`)).status).toBe(404);
  });

  it("show the products sold 50 at a time, with the total and plain Next and Previous links", async () => {
    // July: 51 watches, the nth sold once at Rs. 100 × n, in one order.
    const { db } = server.database;
    await db.raw(
      `INSERT INTO products (name, brand, description, category, price, stock)
       SELECT 'Paged watch ' || lpad(n::text, 2, '0'), 'Orient', 'A watch', 'Men', 100 * n, 5
         FROM generate_series(1, 51) AS n`,
    );
    const [row] = await db("orders")
      .insert({
        customerName: "Bilal",
        customerEmail: "b@report-pages.test",
        street: "2 Mall Road",
        city: "Lahore",
        state: "Punjab",
        zipCode: "54000",
        country: "Pakistan",
        totalPrice: 132600,
        status: "Pending",
        createdAt: new Date("2026-07-10T10:00:00Z"),
      })
      .returning("id");
    await db.raw(
      `INSERT INTO order_items (order_id, product_id, product_name, quantity, unit_price, position)
       SELECT ?, id, name, 1, price, row_number() OVER (ORDER BY name) - 1 FROM products WHERE name LIKE 'Paged watch %'`,
      [row.id],
    );
    const JULY = "from=2026-07-01&to=2026-07-31";

    // The best sellers' table: the page's first (the slowest movers' comes later).
    const bestSellers = (text: string) => text.slice(text.indexOf("<table"), text.indexOf("</table>"));
    const first = await pageOf(admin, `/admin/reports/products?${JULY}`);
    expect(first.status).toBe(200);
    expect(first.text).toContain("1 to 50 of 51 products sold");
    expect(bestSellers(first.text).match(/<tr>/g)).toHaveLength(51);
    expect(bestSellers(first.text)).toContain(">Paged watch 51<");
    expect(bestSellers(first.text)).not.toContain(">Paged watch 01<");
    // A plain link (React Router's <Link> adds data attributes after the href).
    const link = (href: string, label: string) =>
      new RegExp(`<a href="${href.replaceAll("&", "&amp;").replace("?", "\\?")}"[^>]*>${label}</a>`);
    expect(first.text).toMatch(link(`/admin/reports/products?${JULY}&page=2`, "Next"));

    const second = await pageOf(admin, `/admin/reports/products?${JULY}&page=2`);
    expect(second.text).toContain("51 to 51 of 51 products sold");
    expect(bestSellers(second.text)).toContain(">Paged watch 01<");
    expect(bestSellers(second.text)).not.toContain(">Paged watch 51<");
    expect(second.text).toMatch(link(`/admin/reports/products?${JULY}`, "Previous"));
    // The CSV download keeps every product.
    const csv = await (await admin.get(`/admin/reports/products/export.csv?${JULY}`)).text();
    expect(csv.trimEnd().split("\r\n")).toHaveLength(52);

    const deliveries = await pageOf(admin, `/admin/reports/deliveries?${JULY}&page=2`);
    expect(deliveries.text).toContain("51 to 51 of 51 products");
    expect(deliveries.text).toMatch(link(`/admin/reports/deliveries?${JULY}`, "Previous"));
  });

  it("refuse a bad period beside its field, keeping what was typed", async () => {
    const page = await pageOf(admin, "/admin/reports/sales?from=2026-10-31&to=2026-10-01");
    expect(page.status).toBe(400);
    expect(page.text).toContain("To must be on or after From");
    expect(page.text).toMatch(/<input[^>]*name="from"[^>]*value="2026-10-31"/);
    expect(page.text).not.toContain(`class="report-chart`);
  });

  it("download each report as CSV", async () => {
    const response = await admin.get(`/admin/reports/sales/export.csv?${OCTOBER}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const csv = await response.text();
    expect(csv).toContain("2026-10-31,1,12500,12500,12500,0,0,0\r\n");
    expect((await admin.get("/admin/reports/sales/export.csv?from=2026-13-01&to=2026-10-01")).status).toBe(400);
  });

  it("are the admin's only: a customer goes home, a guest to the log-in page", async () => {
    expect((await pageOf(customer, "/admin/reports")).location).toBe("/");
    expect((await pageOf(customer, `/admin/reports/sales/export.csv?${OCTOBER}`)).location).toBe("/");
    const { TestClient } = await import("../support/http-client");
    const guest = await pageOf(new TestClient(server.baseUrl), "/admin/reports/stock");
    expect(guest.status).toBe(302);
    expect(guest.location).toMatch(/^\/login/);
  });

  it("are in the admin menu, and the dashboard charts the last 30 days' revenue and orders with a link to them", async () => {
    const dashboard = (await pageOf(admin, "/admin")).text;
    expect(dashboard).toMatch(/<a[^>]*href="\/admin\/reports"[^>]*>Reports<\/a>/);
    expect(dashboard).toMatch(/<title id="[^"]+">Revenue, last 30 days<\/title>/);
    expect(dashboard).toMatch(/<title id="[^"]+">Orders, last 30 days<\/title>/);
    expect(dashboard).toMatch(/<a[^>]*href="\/admin\/reports"[^>]*>All reports/);
  });
});
