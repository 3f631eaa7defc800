/**
 * Order mails through a real SMTP server (tests/support/smtp-server.ts), and cancelling one's
 * own order within 2 hours (docs/product.md, "Order mails" and "Cancelling an order"). The clock
 * of the services is moved instead of waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer, linkIn } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";
const STORE_EMAIL = "orders@shop.example";

let server: TestServer;
let smtp: TestSmtpServer;
/** The services' clock, when a test stops it at a moment. */
let stoppedAt: number | null = null;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer(
    { SMTP_URL: smtp.url, PUBLIC_URL, STORE_EMAIL, SITE_NAME: "Waqt", MAIL_RETRY_SECONDS: "0.1" },
    { mail: { pollMs: 50 }, clock: () => new Date(stoppedAt ?? Date.now()) },
  );
  await insertUser(server, { name: "Desk Admin", email: "admin@mails.test", password: "adminpass1", role: "admin" });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

let shopperNumber = 0;
async function newShopper() {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@mails.test`;
  const id = await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  const client = new TestClient(server.baseUrl);
  expect((await client.postForm("/login", { email, password: "shopperpass1" })).status).toBe(303);
  return { id, email, client, token: await apiToken(client, email, "shopperpass1") };
}

async function adminClient() {
  const client = new TestClient(server.baseUrl);
  expect((await client.postForm("/login", { email: "admin@mails.test", password: "adminpass1" })).status).toBe(303);
  return client;
}

/** Places an order through the checkout page and answers its id. */
async function orderByPage(client: TestClient, productId: string, quantity: number) {
  await client.postForm("/cart", { intent: "add", productId, quantity: String(quantity), then: "cart" });
  const checkout = await (await client.get("/checkout")).text();
  const checkoutKey = /name="checkoutKey" value="([^"]+)"/.exec(checkout)![1]!;
  const placed = await client.postForm("/checkout", { ...address, phone: "0300-1234567", checkoutKey });
  expect(placed.status).toBe(303);
  return placed.headers.get("location")!.split("/").pop()!;
}

async function orderByApi(token: string, client: TestClient, productId: string, quantity: number) {
  expect((await client.api("POST", "/cart", { token, body: { productId, quantity } })).status).toBe(200);
  const placed = await client.api("POST", "/orders", { token, body: { address, phone: "03001234567" } });
  expect(placed.status).toBe(201);
  return placed.body.data;
}

const number = (id: string) => `#${id.slice(-8).toUpperCase()}`;
const stockOf = async (productId: string) =>
  (await server.database.db("products").where("id", productId).first("stock")).stock as number;

describe("order mails", () => {
  it("confirms an order placed on the page to the customer, and tells the store", async () => {
    const [watch, strap] = await insertProducts(server, [
      { name: "Ravi Chronograph", price: 12500, stock: 5 },
      { name: "Indus Diver", price: 8999.5, stock: 5 },
    ]);
    const shopper = await newShopper();
    await shopper.client.postForm("/cart", { intent: "add", productId: strap!, quantity: "1", then: "cart" });
    const orderId = await orderByPage(shopper.client, watch!, 2);

    const mail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes(number(orderId)));
    expect(mail.subject).toBe(`Your Waqt order ${number(orderId)} is placed`);
    expect(mail.from).toMatch(/^"?Waqt"? <orders@shop\.example>$/);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(number(orderId));
      expect(part).toContain("Ravi Chronograph × 2");
      expect(part).toContain("Indus Diver × 1");
      expect(part).toContain("Rs. 25,000");
      expect(part).toContain("Rs. 33,999.50");
      expect(part).toContain("12 Canal Road");
      expect(part).toContain("Cash on Delivery");
      expect(part).toContain("What happens next");
      expect(part).toContain("0300-1234567");
      expect(part).toContain("within 2 hours");
    }
    expect(linkIn(mail.text, PUBLIC_URL)).toBe(`${PUBLIC_URL}/my-orders/${orderId}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/my-orders/${orderId}"`);
    expect(mail.messageId).toMatch(/@shop\.example>$/);

    const notice = await smtp.waitFor((m) => m.to.includes(STORE_EMAIL) && m.subject.includes(number(orderId)));
    expect(notice.subject).toBe(`New order ${number(orderId)}: Rs. 33,999.50 from Shopper ${shopperNumber}`);
    expect(notice.text).toContain(shopper.email);
    expect(linkIn(notice.text, PUBLIC_URL)).toBe(`${PUBLIC_URL}/admin/orders/${orderId}`);
  });

  it("confirms an order placed through the API too, once even when the request is repeated", async () => {
    const [id] = await insertProducts(server, [{ name: "API Watch", price: 5000, stock: 5 }]);
    const shopper = await newShopper();
    const order = await orderByApi(shopper.token, shopper.client, id!, 1);
    await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes(number(order._id)));
    await smtp.waitFor((m) => m.to.includes(STORE_EMAIL) && m.subject.includes(number(order._id)));
    await server.jobs!.runDueJobs();
    expect(smtp.to(shopper.email)).toHaveLength(1);
  });

  it("tells the customer of Shipped (with courier and tracking number), Delivered and Cancelled", async () => {
    const [id] = await insertProducts(server, [{ name: "Status Watch", stock: 5 }]);
    const shopper = await newShopper();
    const admin = await adminClient();
    const orderId = await orderByPage(shopper.client, id!, 1);
    const ship = await admin.postForm(`/admin/orders/${orderId}/ship`, {
      courier: "TCS",
      trackingNumber: "TCS-778899",
      shipUnconfirmed: "true",
      returnTo: "/admin/orders",
    });
    expect(ship.status).toBe(303);
    const shipped = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("has shipped"));
    expect(shipped.subject).toBe(`Your order ${number(orderId)} has shipped`);
    expect(shipped.text).toContain("with TCS");
    expect(shipped.text).toContain("Tracking number: TCS-778899");
    expect(shipped.html).toContain("TCS-778899");
    // TCS has a public tracking page: the mail links to this parcel's (courier-tracking.shared.ts).
    expect(shipped.text).toContain(
      "Follow your parcel on the TCS website: https://www.tcsexpress.com/track/TCS-778899",
    );

    const adminToken = await apiToken(new TestClient(server.baseUrl), "admin@mails.test", "adminpass1");
    const delivered = await shopper.client.api("PATCH", `/orders/${orderId}/status`, {
      token: adminToken,
      body: { status: "Delivered" },
    });
    expect(delivered.status).toBe(200);
    const deliveredMail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("delivered"));
    expect(deliveredMail.subject).toBe(`Your order ${number(orderId)} was delivered`);

    // The same status again sends nothing more.
    await shopper.client.api("PATCH", `/orders/${orderId}/status`, {
      token: adminToken,
      body: { status: "Delivered" },
    });
    const cancelled = await admin.postForm("/admin/orders", {
      intent: "status",
      orderId,
      status: "Cancelled",
      returnTo: "/admin/orders",
    });
    expect(cancelled.status).toBe(303);
    const cancelledMail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("cancelled"));
    expect(cancelledMail.subject).toBe(`Your order ${number(orderId)} was cancelled`);
    expect(cancelledMail.text).toContain("We cancelled your order");
    await server.jobs!.runDueJobs();
    expect(smtp.to(shopper.email).map((m) => m.subject.split(" ").slice(-2).join(" "))).toEqual([
      "is placed",
      "has shipped",
      "was delivered",
      "was cancelled",
    ]);
  });

  it("sends nothing for a change that is rolled back", async () => {
    const [id] = await insertProducts(server, [{ name: "Rollback Watch", stock: 1 }]);
    const shopper = await newShopper();
    const orderId = await orderByPage(shopper.client, id!, 1);
    const adminToken = await apiToken(new TestClient(server.baseUrl), "admin@mails.test", "adminpass1");
    await shopper.client.api("PATCH", `/orders/${orderId}/status`, {
      token: adminToken,
      body: { status: "Cancelled" },
    });
    // Someone buys the returned unit; taking the order back out of Cancelled is then refused.
    const other = await newShopper();
    await orderByPage(other.client, id!, 1);
    const before = await server.database.db("outbox").count("* as count").first();
    const refused = await shopper.client.api("PATCH", `/orders/${orderId}/status`, {
      token: adminToken,
      body: { status: "Shipped" },
    });
    expect(refused.status).toBe(409);
    expect(await server.database.db("outbox").count("* as count").first()).toEqual(before);
  });
});

describe("a customer cancels their own order within 2 hours", () => {
  it("cancels from My Orders through the confirm step; the stock comes back; the customer and the store are told", async () => {
    const [id] = await insertProducts(server, [{ name: "Regret Watch", stock: 3 }]);
    const shopper = await newShopper();
    const orderId = await orderByPage(shopper.client, id!, 2);
    expect(await stockOf(id!)).toBe(1);

    const list = await (await shopper.client.get("/my-orders")).text();
    expect(list).toContain(`href="/my-orders/${orderId}/cancel"`);
    const details = await (await shopper.client.get(`/my-orders/${orderId}`)).text();
    expect(details).toContain(`href="/my-orders/${orderId}/cancel"`);
    const confirm = await shopper.client.get(`/my-orders/${orderId}/cancel`);
    expect(confirm.status).toBe(200);
    const confirmText = await confirm.text();
    expect(confirmText).toContain(`Are you sure you want to cancel order ${number(orderId)}`);
    // Asking changes nothing.
    expect(await stockOf(id!)).toBe(1);

    const cancelled = await shopper.client.postForm(`/my-orders/${orderId}/cancel`, {});
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toBe(`/my-orders/${orderId}`);
    expect(await stockOf(id!)).toBe(3);
    const page = await (await shopper.client.get(`/my-orders/${orderId}`)).text();
    expect(page).toContain(`Order ${number(orderId)} was cancelled.`);
    expect(page).toContain("status--cancelled");
    expect(page).not.toContain(`/my-orders/${orderId}/cancel"`);

    const mail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("was cancelled"));
    expect(mail.text).toContain("You cancelled your order");
    const notice = await smtp.waitFor((m) => m.to.includes(STORE_EMAIL) && m.subject.includes("by the customer"));
    expect(notice.subject).toBe(`Order ${number(orderId)} was cancelled by the customer`);
  });

  it("is allowed until just before 2 hours, refused at exactly 2 hours, and refused once not pending (API and page)", async () => {
    const [id] = await insertProducts(server, [{ name: "Clock Watch", stock: 10 }]);
    const shopper = await newShopper();
    const early = await orderByApi(shopper.token, shopper.client, id!, 1);
    const late = await orderByApi(shopper.token, shopper.client, id!, 1);
    const createdAt = (order: { _id: string }) =>
      server.database.db("orders").where("id", order._id).first("created_at");
    try {
      // 1 ms before the 2 hours are up: still allowed.
      stoppedAt = new Date((await createdAt(early)).createdAt).getTime() + 2 * 3600_000 - 1;
      const ok = await shopper.client.api("POST", `/orders/${early._id}/cancel`, { token: shopper.token });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe("Order cancelled");
      expect(ok.body.data.status).toBe("Cancelled");
      expect(await stockOf(id!)).toBe(9);

      // Exactly 2 hours: too late, on the API and on the page.
      stoppedAt = new Date((await createdAt(late)).createdAt).getTime() + 2 * 3600_000;
      const tooLate = await shopper.client.api("POST", `/orders/${late._id}/cancel`, { token: shopper.token });
      expect(tooLate.status).toBe(409);
      expect(tooLate.body.message).toBe("Orders can only be cancelled within 2 hours of ordering");
      const list = await (await shopper.client.get("/my-orders")).text();
      expect(list).not.toContain(`/my-orders/${late._id}/cancel"`);
      const step = await (await shopper.client.get(`/my-orders/${late._id}/cancel`)).text();
      expect(step).toContain("Orders can only be cancelled within 2 hours of ordering");
      const post = await shopper.client.postForm(`/my-orders/${late._id}/cancel`, {});
      expect(post.status).toBe(409);
      expect(await post.text()).toContain("Orders can only be cancelled within 2 hours of ordering");
      expect(await stockOf(id!)).toBe(9);

      // Cancelled already: only pending orders.
      const again = await shopper.client.api("POST", `/orders/${early._id}/cancel`, { token: shopper.token });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("Only pending orders can be cancelled");
    } finally {
      stoppedAt = null;
    }
  });

  it("refuses a shipped order, and answers 404 to anyone but the owner, admins included", async () => {
    const [id] = await insertProducts(server, [{ name: "Owner Watch", stock: 10 }]);
    const shopper = await newShopper();
    const other = await newShopper();
    const order = await orderByApi(shopper.token, shopper.client, id!, 1);
    const adminToken = await apiToken(new TestClient(server.baseUrl), "admin@mails.test", "adminpass1");

    for (const token of [other.token, adminToken]) {
      const refused = await shopper.client.api("POST", `/orders/${order._id}/cancel`, { token });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe("Order not found");
    }
    expect((await other.client.get(`/my-orders/${order._id}`)).status).toBe(404);
    expect((await other.client.postForm(`/my-orders/${order._id}/cancel`, {})).status).toBe(404);
    expect((await (await adminClient()).get(`/my-orders/${order._id}`)).status).toBe(404);
    expect((await shopper.client.api("POST", `/orders/not-an-id/cancel`, { token: shopper.token })).status).toBe(404);

    await shopper.client.api("PATCH", `/orders/${order._id}/status`, {
      token: adminToken,
      body: { status: "Shipped", courier: "Leopards", trackingNumber: "LP-123456" },
    });
    const shipped = await shopper.client.api("POST", `/orders/${order._id}/cancel`, { token: shopper.token });
    expect(shipped.status).toBe(409);
    expect(shipped.body.message).toBe("Only pending orders can be cancelled");
    // The customer's order page shows the courier and tracking number.
    const page = await (await shopper.client.get(`/my-orders/${order._id}`)).text();
    expect(page).toContain("Leopards");
    expect(page).toContain("LP-123456");
    expect(await stockOf(id!)).toBe(9);
  });
});
