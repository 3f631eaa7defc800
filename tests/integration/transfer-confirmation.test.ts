/**
 * A bank-transfer order is confirmed by its payment, never by phone or by an answer to the
 * cash-on-delivery text (docs/decisions/2026-11-26-advance-payment.md): the admin list's "Waiting
 * for the customer's answer" leaves it out, "Send again" sends it no confirmation text, and once
 * its payment is verified the ship page ships it without asking "not confirmed by phone, ship anyway?".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let admin: TestClient;
const address = { street: "5 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Desk Admin", email: "admin@transfer.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@transfer.test", "adminpass1");
  admin = new TestClient(server.baseUrl);
  expect(
    (await admin.postForm("/login", { email: "admin@transfer.test", password: "adminpass1", redirectTo: "" })).status,
  ).toBe(303);
  const account = { bankAccountTitle: "Waqt Watches", bankName: "HBL", iban: "PK36 HABB 0001 2345 6789 0123" };
  expect((await client.api("PUT", "/settings/orders", { body: account, token: adminToken })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

let shoppers = 0;
/** An order of a new shopper, with a mobile number, placed through the API. */
async function placeOrder(paymentMethod: "Bank Transfer" | "Cash on Delivery"): Promise<string> {
  shoppers += 1;
  const email = `shopper${shoppers}@transfer.test`;
  await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Transfer Watch ${shoppers}`, price: 4000, stock: 5 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
  const placed = await client.api("POST", "/orders", {
    body: { address, phone: "0301-2223334", paymentMethod },
    token,
  });
  expect(placed.status).toBe(201);
  return placed.body.data._id as string;
}

const confirmationTexts = async (orderId: string) =>
  (await server.database.db("order_messages").where({ order_id: orderId, kind: "confirmation" })).length;

describe("a bank-transfer order and the confirmation", () => {
  it("is not listed as waiting for the customer's answer", async () => {
    const cashOrder = await placeOrder("Cash on Delivery");
    const transferOrder = await placeOrder("Bank Transfer");
    const waiting = await (await admin.get("/admin/orders?confirmation=pending")).text();
    expect(waiting).toContain(`/admin/orders/${cashOrder}`);
    expect(waiting).not.toContain(`/admin/orders/${transferOrder}`);
    const dashboard = await (await admin.get("/admin")).text();
    expect(dashboard).toContain("1 waiting for the customer&#x27;s answer");
  });

  it('is sent no confirmation text again, and its page offers no "Send again"', async () => {
    const transferOrder = await placeOrder("Bank Transfer");
    const orderPage = await (await admin.get(`/admin/orders/${transferOrder}`)).text();
    expect(orderPage).not.toContain('name="intent" value="send-again"');
    expect(orderPage).not.toContain('name="intent" value="confirm"');
    expect(orderPage).toContain("Confirmed once its payment is verified");
    const sent = await admin.postForm(`/admin/orders/${transferOrder}`, { intent: "send-again" });
    expect(sent.status).toBe(303);
    expect(await (await admin.get(`/admin/orders/${transferOrder}`)).text()).toContain(
      "An order paid in advance is confirmed by its payment, not by a confirmation text",
    );
    expect(await confirmationTexts(transferOrder)).toBe(0);
  });

  it('is refused "confirmed by phone" by the API, as the page offers it none, while a cash order takes it', async () => {
    const transferOrder = await placeOrder("Bank Transfer");
    const refused = await client.api("POST", `/orders/${transferOrder}/confirm`, { token: adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      message: "An order paid in advance is confirmed by its verified payment, not by phone",
    });
    const row = await server.database.db("orders").where({ id: transferOrder }).first();
    expect(row).toMatchObject({ confirmedAt: null, confirmationStatus: "pending" });

    const cashOrder = await placeOrder("Cash on Delivery");
    const confirmed = await client.api("POST", `/orders/${cashOrder}/confirm`, { token: adminToken });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.confirmation).toMatchObject({ status: "confirmed", by: "admin", channel: "phone" });
  });

  it("ships without the second question once its payment is verified, while a cash order still gets it", async () => {
    const transferOrder = await placeOrder("Bank Transfer");
    const customerReference = { reference: "HBL 778899" };
    await server.database.db("orders").where({ id: transferOrder }).update({
      paymentStatus: "submitted",
      paymentReference: customerReference.reference,
      paymentSubmittedAt: new Date(),
    });
    expect((await admin.postForm(`/admin/orders/${transferOrder}`, { intent: "payment-verified" })).status).toBe(303);
    const shipped = await admin.postForm(`/admin/orders/${transferOrder}/ship`, {
      courier: "TCS",
      trackingNumber: "TCS-202020",
    });
    expect(shipped.status).toBe(303);
    expect((await server.database.db("orders").where({ id: transferOrder }).first()).status).toBe("Shipped");

    const cashOrder = await placeOrder("Cash on Delivery");
    const asked = await admin.postForm(`/admin/orders/${cashOrder}/ship`, {
      courier: "TCS",
      trackingNumber: "TCS-303030",
    });
    expect(asked.status).toBe(409);
    expect(await asked.text()).toContain("has not been confirmed by phone. Ship it anyway");
  });
});
