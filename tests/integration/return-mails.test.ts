/**
 * The customer's mail for each step of a return, through a real SMTP server
 * (tests/support/smtp-server.ts; docs/product.md, "Order mails"), written with the change: a
 * refused change mails nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer, linkIn, type ReceivedMail } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";
const STORE_EMAIL = "orders@shop.example";

let server: TestServer;
let smtp: TestSmtpServer;
let adminToken: string;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer(
    { SMTP_URL: smtp.url, PUBLIC_URL, STORE_EMAIL, SITE_NAME: "Waqt", MAIL_RETRY_SECONDS: "0.1" },
    { mail: { pollMs: 50 } },
  );
  await insertUser(server, {
    name: "Desk Admin",
    email: "admin@promise-mails.test",
    password: "adminpass1",
    role: "admin",
  });
  adminToken = await apiToken(new TestClient(server.baseUrl), "admin@promise-mails.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const number = (id: string) => `#${id.slice(-8).toUpperCase()}`;

let shopperNumber = 0;
async function newShopper() {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@promise-mails.test`;
  await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  const client = new TestClient(server.baseUrl);
  expect((await client.postForm("/login", { email, password: "shopperpass1" })).status).toBe(303);
  return { email, client, token: await apiToken(client, email, "shopperpass1") };
}

async function adminClient() {
  const client = new TestClient(server.baseUrl);
  const signedIn = await client.postForm("/login", { email: "admin@promise-mails.test", password: "adminpass1" });
  expect(signedIn.status).toBe(303);
  return client;
}

/** A delivered order of `quantity` of a new watch, placed through the API, with its customer. */
async function deliveredOrder(name: string, price: number, quantity: number) {
  const shopper = await newShopper();
  const [productId] = await insertProducts(server, [{ name, price, stock: 10 }]);
  const added = await shopper.client.api("POST", "/cart", { token: shopper.token, body: { productId, quantity } });
  expect(added.status).toBe(200);
  const placed = await shopper.client.api("POST", "/orders", { token: shopper.token, body: { address } });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  const delivered = await shopper.client.api("PATCH", `/orders/${orderId}/status`, {
    token: adminToken,
    body: { status: "Delivered" },
  });
  expect(delivered.status).toBe(200);
  return { ...shopper, orderId, productId: productId! };
}

/** Every mail this customer got about returns, once the outbox has sent all it holds. */
async function returnMailsTo(email: string): Promise<ReceivedMail[]> {
  await server.jobs!.runDueJobs();
  return smtp.to(email).filter((mail) => /return|refund/i.test(mail.subject));
}

const outboxCount = async () => Number((await server.database.db("outbox").count("* as count").first())!.count);

describe("return mails", () => {
  it("mails the customer once when a return is requested, approved and refunded; refusals mail nothing", async () => {
    const shopper = await deliveredOrder("Ravi Chronograph", 9_000, 2);
    const { orderId, productId, token, email } = shopper;

    // Asking for more than was ordered is refused and mails nothing.
    const before = await outboxCount();
    const tooMany = await shopper.client.api("POST", `/orders/${orderId}/returns`, {
      token,
      body: { items: [{ productId, quantity: 3 }], reason: "Wrong item" },
    });
    expect(tooMany.status).toBe(400);
    expect(await outboxCount()).toBe(before);

    const requested = await shopper.client.api("POST", `/orders/${orderId}/returns`, {
      token,
      body: {
        items: [{ productId, quantity: 1 }],
        reason: "Damaged or defective",
        note: "<b>Cracked</b> & scratched",
      },
    });
    expect(requested.status).toBe(201);
    const returnId = requested.body.data._id as string;
    const asked = await smtp.waitFor((m) => m.to.includes(email) && m.subject.includes("return request"));
    expect(asked.subject).toBe(`We received your return request for order ${number(orderId)}`);
    expect(asked.text).toContain("Ravi Chronograph  × 1");
    expect(asked.text).toContain('Reason: Damaged or defective ("<b>Cracked</b> & scratched")');
    expect(asked.text).toContain("your refund will be Rs. 9,000");
    // What the customer typed is text in the HTML part, never markup.
    expect(asked.html).toContain("&lt;b&gt;Cracked&lt;/b&gt; &amp; scratched");
    expect(asked.html).not.toContain("<b>Cracked");
    expect(linkIn(asked.text, PUBLIC_URL)).toBe(`${PUBLIC_URL}/my-orders/${orderId}`);

    // Receiving before approval is refused: no mail.
    const early = await shopper.client.api("PATCH", `/returns/${returnId}`, {
      token: adminToken,
      body: { status: "Received", refund: { method: "Cash" } },
    });
    expect(early.status).toBe(409);
    const approved = await shopper.client.api("PATCH", `/returns/${returnId}`, {
      token: adminToken,
      body: { status: "Approved" },
    });
    expect(approved.status).toBe(200);
    const approvedMail = await smtp.waitFor((m) => m.to.includes(email) && m.subject.includes("is approved"));
    expect(approvedMail.subject).toBe(`Your return for order ${number(orderId)} is approved`);
    expect(approvedMail.text).toContain("Once it reaches us we refund Rs. 9,000.");

    const received = await shopper.client.api("PATCH", `/returns/${returnId}`, {
      token: adminToken,
      body: { status: "Received", refund: { method: "JazzCash", reference: "JC-778812" } },
    });
    expect(received.status).toBe(200);
    const refundMail = await smtp.waitFor((m) => m.to.includes(email) && m.subject.includes("refund"));
    expect(refundMail.subject).toBe(`Your refund of Rs. 9,000 for order ${number(orderId)}`);
    expect(refundMail.text).toContain("We refunded Rs. 9,000 by JazzCash (reference JC-778812).");
    expect(refundMail.html).toContain("We refunded Rs. 9,000 by JazzCash (reference JC-778812).");

    // Received twice, or rejected after: refused, and nothing more is written or sent.
    const beforeRefusals = await outboxCount();
    for (const body of [
      { status: "Received", refund: { method: "Cash" } },
      { status: "Rejected", rejectionReason: "No" },
    ]) {
      const refused = await shopper.client.api("PATCH", `/returns/${returnId}`, { token: adminToken, body });
      expect(refused.status).toBe(409);
    }
    expect(await outboxCount()).toBe(beforeRefusals);
    expect((await returnMailsTo(email)).map((mail) => mail.subject)).toEqual([
      `We received your return request for order ${number(orderId)}`,
      `Your return for order ${number(orderId)} is approved`,
      `Your refund of Rs. 9,000 for order ${number(orderId)}`,
    ]);
  });

  it("mails a rejection with the store's reason, asked for on the page and rejected on the admin's page", async () => {
    const shopper = await deliveredOrder("Indus Diver", 6_500, 1);
    const asked = await shopper.client.postForm(`/my-orders/${shopper.orderId}/return`, {
      [`quantity-${shopper.productId}`]: "1",
      reason: "Changed my mind",
    });
    expect(asked.status).toBe(303);
    await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("return request"));
    const returnId = (await server.database.db("order_returns").where({ orderId: shopper.orderId }).first()).id;

    const admin = await adminClient();
    const rejected = await admin.postForm(`/admin/returns/${returnId}`, {
      intent: "reject",
      rejectionReason: 'Worn for weeks: the strap is "creased" <see photos>',
    });
    expect(rejected.status).toBe(303);
    const mail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes("not accepted"));
    expect(mail.subject).toBe(`Your return for order ${number(shopper.orderId)} was not accepted`);
    expect(mail.text).toContain('Reason: Worn for weeks: the strap is "creased" <see photos>');
    expect(mail.html).toContain("Reason: Worn for weeks: the strap is &quot;creased&quot; &lt;see photos&gt;");
    expect(mail.text).not.toContain("We refunded");

    // Approving a rejected return is refused and mails nothing.
    const before = await outboxCount();
    const refused = await admin.postForm(`/admin/returns/${returnId}`, { intent: "approve" });
    expect(refused.status).toBe(409);
    expect(await outboxCount()).toBe(before);
    expect((await returnMailsTo(shopper.email)).map((m) => m.subject)).toEqual([
      `We received your return request for order ${number(shopper.orderId)}`,
      `Your return for order ${number(shopper.orderId)} was not accepted`,
    ]);
  });
});
