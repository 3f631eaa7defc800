/**
 * "Notify me when it's back" (docs/product.md, "Back in stock"), through a real SMTP server:
 * the product page's form (no sign-in, honeypot, duplicates accepted once) and the API's 202,
 * 400, 404 and 429; one mail per waiting address when the stock goes from 0 to more by any
 * path (the admin's form, the API, an order cancelled by the admin or the customer, SQL by
 * hand); the unsubscribe link (a GET changes nothing, the button stops every alert to the
 * address); the customer's waiting alerts on the profile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer, linkIn } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";

let server: TestServer;
let smtp: TestSmtpServer;
let admin: TestClient;
let adminToken: string;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL }, { mail: { pollMs: 50 } });
  await insertUser(server, { name: "Stock Admin", email: "admin@alerts.test", password: "adminpass1", role: "admin" });
  admin = new TestClient(server.baseUrl);
  expect((await admin.postForm("/login", { email: "admin@alerts.test", password: "adminpass1" })).status).toBe(303);
  adminToken = await apiToken(new TestClient(server.baseUrl), "admin@alerts.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const alertsOf = (productId: string) =>
  server.database.db("stock_alerts").where("product_id", productId).orderBy("email");
const backInStock = (email: string, name: string) =>
  smtp.to(email).filter((mail) => mail.subject === `${name} is back in stock`);

/** Lets the sender deliver what is due, then answers the back-in-stock mails of each address. */
async function mailsAfterRestock(emails: string[], name: string) {
  await smtp.waitFor(() => emails.every((email) => backInStock(email, name).length > 0));
  await server.jobs!.runDueJobs();
  return emails.map((email) => backInStock(email, name));
}

function productForm(name: string, stock: number) {
  return {
    name,
    description: `${name} description`,
    price: "15000",
    category: "Men",
    imageUrl: "/images/placeholder-watch.svg",
    stock: String(stock),
    brand: "",
  };
}

describe("the product page's form", () => {
  it("offers Notify me on an out-of-stock watch only, and takes a guest's address once", async () => {
    const [soldOut, inStock] = await insertProducts(server, [
      { name: "Sold Out Watch", stock: 0 },
      { name: "Plenty Watch", stock: 4 },
    ]);
    const guest = new TestClient(server.baseUrl);
    const page = await (await guest.get(`/products/${soldOut}`)).text();
    expect(page).toContain("Notify me when it&#x27;s back");
    expect(page).toMatch(/<input[^>]*type="email"[^>]*name="email"|<input[^>]*name="email"[^>]*type="email"/);
    expect(page).toContain('name="website"');
    expect(await (await guest.get(`/products/${inStock}`)).text()).not.toContain("Notify me");

    const empty = await guest.postForm(`/products/${soldOut}`, { email: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Email is required");
    const bad = await guest.postForm(`/products/${soldOut}`, { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('value="not-an-email"');
    const bot = await guest.postForm(`/products/${soldOut}`, { email: "bot@alerts.test", website: "spam" });
    expect(bot.status).toBe(403);

    for (let i = 0; i < 2; i++) {
      const asked = await guest.postForm(`/products/${soldOut}`, { email: "Sana@Alerts.test" });
      expect(asked.status).toBe(303);
      expect(asked.headers.get("location")).toBe(`/products/${soldOut}`);
    }
    expect(await (await guest.get(`/products/${soldOut}`)).text()).toContain(
      "We will email sana@alerts.test when Sold Out Watch is back in stock.",
    );
    const inStockAsk = await guest.postForm(`/products/${inStock}`, { email: "sana@alerts.test" });
    expect(inStockAsk.status).toBe(400);
    expect(await inStockAsk.text()).toContain("This watch is in stock: you can order it now");
    expect((await alertsOf(soldOut!)).map((row) => [row.email, row.state])).toEqual([["sana@alerts.test", "waiting"]]);
    expect(await alertsOf(inStock!)).toEqual([]);
  });

  it("fills in and hides a signed-in customer's address, and lists and cancels the alerts on the profile", async () => {
    const [first, second] = await insertProducts(server, [
      { name: "Profile Watch One", stock: 0 },
      { name: "Profile Watch Two", stock: 0 },
    ]);
    await insertUser(server, { name: "Alert Customer", email: "customer@alerts.test", password: "customerpass1" });
    const customer = new TestClient(server.baseUrl);
    await customer.postForm("/login", { email: "customer@alerts.test", password: "customerpass1" });
    const page = await (await customer.get(`/products/${first}`)).text();
    expect(page).toContain('type="hidden" name="email" value="customer@alerts.test"');
    expect(page).toContain("We will send one email to customer@alerts.test");
    // Whatever is posted, the account's address is used.
    await customer.postForm(`/products/${first}`, { email: "someone-else@alerts.test" });
    await customer.postForm(`/products/${second}`, {});
    expect((await alertsOf(first!)).map((row) => row.email)).toEqual(["customer@alerts.test"]);

    const profile = await (await customer.get("/profile")).text();
    expect(profile).toContain("Stock alerts");
    expect(profile).toContain("Profile Watch One");
    expect(profile).toContain("Profile Watch Two");
    const [alert] = await alertsOf(first!);
    const cancelled = await customer.postForm("/profile", { alertId: alert.id });
    expect(cancelled.status).toBe(303);
    const after = await (await customer.get("/profile")).text();
    expect(after).toContain("You will not be told when Profile Watch One is back.");
    expect(after).not.toContain(`href="/products/${first}"`);
    expect(after).toContain("Profile Watch Two");
    // Someone else's alert is not theirs to cancel.
    const [theirs] = await alertsOf(second!);
    const stranger = new TestClient(server.baseUrl);
    await insertUser(server, { name: "Stranger", email: "stranger@alerts.test", password: "strangerpass1" });
    await stranger.postForm("/login", { email: "stranger@alerts.test", password: "strangerpass1" });
    await stranger.postForm("/profile", { alertId: theirs.id });
    expect((await alertsOf(second!))[0].state).toBe("waiting");
  });
});

describe("the API", () => {
  it("answers 202, 400 in stock, 404 unknown, and accepts a second request without a duplicate", async () => {
    const [soldOut, inStock] = await insertProducts(server, [
      { name: "API Sold Out", stock: 0 },
      { name: "API In Stock", stock: 2 },
    ]);
    const api = new TestClient(server.baseUrl);
    for (let i = 0; i < 2; i++) {
      const accepted = await api.api("POST", `/products/${soldOut}/notify`, { body: { email: "api@alerts.test" } });
      expect(accepted.status).toBe(202);
      expect(accepted.body).toEqual({
        success: true,
        message: "We will email you when it is back in stock",
        data: null,
      });
    }
    expect(await alertsOf(soldOut!)).toHaveLength(1);
    const inStockAsk = await api.api("POST", `/products/${inStock}/notify`, { body: { email: "api@alerts.test" } });
    expect(inStockAsk.status).toBe(400);
    expect(inStockAsk.body.message).toBe("This watch is in stock: you can order it now");
    const unknown = await api.api("POST", "/products/00000000-0000-4000-8000-000000000000/notify", {
      body: { email: "api@alerts.test" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Product not found");
    expect((await api.api("POST", "/products/nope/notify", { body: { email: "api@alerts.test" } })).status).toBe(404);
    expect((await api.api("POST", `/products/${soldOut}/notify`, { body: {} })).status).toBe(400);
  });

  it("limits requests per client address (429 with Retry-After)", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" }, { shareDatabaseOf: server });
    try {
      const [soldOut] = await insertProducts(server, [{ name: "Limited Watch", stock: 0 }]);
      const api = new TestClient(limited.baseUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push(
          (await api.api("POST", `/products/${soldOut}/notify`, { body: { email: `many${i}@alerts.test` } })).status,
        );
      }
      expect(statuses.slice(0, 20).every((status) => status === 202)).toBe(true);
      expect(statuses[20]).toBe(429);
      const page = await new TestClient(limited.baseUrl).postForm(`/products/${soldOut}`, { email: "x@alerts.test" });
      expect(page.status).toBe(429);
      expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe("back in stock, by any path", () => {
  it("mails each waiting address once when an admin restocks on the product form, with a link to stop alerts", async () => {
    const [id] = await insertProducts(server, [{ name: "Form Restock", stock: 0 }]);
    const api = new TestClient(server.baseUrl);
    for (const email of ["one@alerts.test", "two@alerts.test"]) {
      await api.api("POST", `/products/${id}/notify`, { body: { email } });
    }
    const edited = await admin.postForm(`/admin/products/${id}/edit`, productForm("Form Restock", 3));
    expect(edited.status).toBe(303);
    const [one, two] = await mailsAfterRestock(["one@alerts.test", "two@alerts.test"], "Form Restock");
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);
    const mail = one![0]!;
    expect(linkIn(mail.text, `${PUBLIC_URL}/products/`)).toBe(`${PUBLIC_URL}/products/${id}`);
    expect(mail.text).toContain("Rs. 15,000");
    expect(mail.html).toContain(`href="${PUBLIC_URL}/products/${id}"`);
    // mailparser reads List-* headers into "list".
    expect(JSON.stringify(mail.headers.get("list"))).toContain(`${PUBLIC_URL}/unsubscribe?token=`);
    expect((await alertsOf(id!)).map((row) => row.state)).toEqual(["notified", "notified"]);

    // Done: out of stock and back again sends nothing more to them.
    await admin.postForm(`/admin/products/${id}/edit`, productForm("Form Restock", 0));
    await admin.postForm(`/admin/products/${id}/edit`, productForm("Form Restock", 2));
    await server.jobs!.runDueJobs();
    expect(backInStock("one@alerts.test", "Form Restock")).toHaveLength(1);
  });

  it("mails when the API raises the stock, and when a cancelled order returns it (admin or customer)", async () => {
    const [viaApi, viaAdminCancel, viaCustomerCancel] = await insertProducts(server, [
      { name: "API Restock", stock: 0 },
      { name: "Admin Cancel Restock", stock: 1 },
      { name: "Customer Cancel Restock", stock: 1 },
    ]);
    const api = new TestClient(server.baseUrl);
    await api.api("POST", `/products/${viaApi}/notify`, { body: { email: "api-restock@alerts.test" } });
    const put = await api.api("PUT", `/products/${viaApi}`, {
      token: adminToken,
      body: { ...productForm("API Restock", 5), price: 15000, stock: 5 },
    });
    expect(put.status).toBe(200);
    await mailsAfterRestock(["api-restock@alerts.test"], "API Restock");

    // A customer buys the last unit of each; someone waits; the orders are cancelled.
    await insertUser(server, { name: "Buyer", email: "buyer@alerts.test", password: "buyerpass1" });
    const buyer = new TestClient(server.baseUrl);
    const buyerToken = await apiToken(buyer, "buyer@alerts.test", "buyerpass1");
    const address = { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
    const orders: string[] = [];
    for (const productId of [viaAdminCancel, viaCustomerCancel]) {
      await buyer.api("POST", "/cart", { token: buyerToken, body: { productId, quantity: 1 } });
      const placed = await buyer.api("POST", "/orders", { token: buyerToken, body: { address } });
      expect(placed.status).toBe(201);
      orders.push(placed.body.data._id);
      await api.api("POST", `/products/${productId}/notify`, { body: { email: "waiter@alerts.test" } });
    }
    await buyer.api("PATCH", `/orders/${orders[0]}/status`, { token: adminToken, body: { status: "Cancelled" } });
    expect((await buyer.api("POST", `/orders/${orders[1]}/cancel`, { token: buyerToken })).status).toBe(200);
    const [mails] = await mailsAfterRestock(["waiter@alerts.test"], "Admin Cancel Restock");
    expect(mails).toHaveLength(1);
    await mailsAfterRestock(["waiter@alerts.test"], "Customer Cancel Restock");
  });

  it("mails after a restock by SQL by hand (the outbox sender turns due alerts into mails)", async () => {
    const [id] = await insertProducts(server, [{ name: "SQL Restock", stock: 0 }]);
    await new TestClient(server.baseUrl).api("POST", `/products/${id}/notify`, { body: { email: "sql@alerts.test" } });
    await server.database.db.raw("UPDATE products SET stock = 7 WHERE id = ?", [id]);
    const [mails] = await mailsAfterRestock(["sql@alerts.test"], "SQL Restock");
    expect(mails).toHaveLength(1);
    // A change that does not take the stock from 0 sends nothing.
    await new TestClient(server.baseUrl).api("POST", `/products/${id}/notify`, { body: { email: "late@alerts.test" } });
    await server.database.db.raw("UPDATE products SET stock = 8 WHERE id = ?", [id]);
    await server.jobs!.runDueJobs();
    expect(backInStock("late@alerts.test", "SQL Restock")).toEqual([]);
  });
});

describe("the unsubscribe link", () => {
  it("shows a page with a button (a GET changes nothing); the button stops every alert to the address", async () => {
    const [first, second, third] = await insertProducts(server, [
      { name: "Unsub One", stock: 0 },
      { name: "Unsub Two", stock: 0 },
      { name: "Unsub Three", stock: 0 },
    ]);
    const api = new TestClient(server.baseUrl);
    for (const productId of [first, second, third]) {
      await api.api("POST", `/products/${productId}/notify`, { body: { email: "unsub@alerts.test" } });
    }
    await api.api("POST", `/products/${third}/notify`, { body: { email: "keep@alerts.test" } });
    await server.database.db.raw("UPDATE products SET stock = 1 WHERE id = ?", [first]);
    const [[mail]] = await mailsAfterRestock(["unsub@alerts.test"], "Unsub One");
    const link = linkIn(mail!.text, `${PUBLIC_URL}/unsubscribe?token=`);
    const path = link.slice(PUBLIC_URL.length);

    const browser = new TestClient(server.baseUrl);
    for (let i = 0; i < 2; i++) {
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain("unsub@alerts.test");
      expect(text).toContain("Stop Stock Alerts");
    }
    expect((await alertsOf(second!)).map((row) => row.state)).toEqual(["waiting"]);

    const stopped = await browser.postForm("/unsubscribe", { token: new URL(link).searchParams.get("token")! });
    expect(stopped.status).toBe(303);
    expect(stopped.headers.get("location")).toBe("/unsubscribe");
    expect(await (await browser.get("/unsubscribe")).text()).toContain(
      "You will get no more stock alerts at unsub@alerts.test.",
    );
    expect((await alertsOf(second!)).map((row) => row.state)).toEqual(["cancelled"]);
    expect((await alertsOf(third!)).map((row) => [row.email, row.state])).toEqual([
      ["keep@alerts.test", "waiting"],
      ["unsub@alerts.test", "cancelled"],
    ]);

    // Restocked later: only the address that did not unsubscribe hears of it.
    await server.database.db.raw("UPDATE products SET stock = 1 WHERE id IN (?, ?)", [second, third]);
    await mailsAfterRestock(["keep@alerts.test"], "Unsub Three");
    expect(backInStock("unsub@alerts.test", "Unsub Two")).toEqual([]);
    expect(backInStock("unsub@alerts.test", "Unsub Three")).toEqual([]);

    const bad = await browser.get("/unsubscribe?token=not-a-token");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This unsubscribe link is invalid");
    expect((await browser.postForm("/unsubscribe", { token: "not-a-token" })).status).toBe(400);
  });
});
