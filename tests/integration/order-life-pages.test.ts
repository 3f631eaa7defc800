/**
 * The merchant's findings of issue 45, as the pages show them (docs/product.md, "An order's
 * life"): each page reads what is due, what to collect, how the order was confirmed and what may be
 * done next from the order's life, so a prepaid order is never "Collect Rs. …", an unverified
 * transfer is refused before the ship form, and a transfer's success page shows the account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationToken } from "../../server/modules/confirmation/order-confirmation";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let desk: TestClient;
let shoppers = 0;

beforeAll(async () => {
  server = await startTestServer({});
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@life-pages.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@life-pages.test", "adminpass1");
  desk = await signedInClient(server.baseUrl, "admin@life-pages.test", "adminpass1");
  const set = await client.api("PUT", "/settings/orders", {
    body: {
      bankAccountTitle: "Waqt Watches (Pvt) Ltd",
      bankName: "Meezan Bank",
      iban: "PK36MEZN0001234567890123",
      firstTimeCodLimit: null,
      codLimit: null,
    },
    token: adminToken,
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

/** A new shopper's order of one watch at Rs. 145,000, placed through the API. */
async function order(fields: Record<string, unknown> = {}) {
  shoppers += 1;
  const email = `shopper${shoppers}@life-pages.test`;
  await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Rolex ${shoppers}`, price: 145_000, stock: 3 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
  const placed = await client.api("POST", "/orders", {
    body: {
      address: { street: "3 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
      phone: `0300-55500${String(shoppers).padStart(2, "0")}`,
      ...fields,
    },
    token,
  });
  expect(placed.status).toBe(201);
  return { id: placed.body.data._id as string, token, email };
}

async function verifiedTransfer() {
  const placed = await order({ paymentMethod: "Bank Transfer" });
  const sent = await client.api("POST", `/orders/${placed.id}/payment-reference`, {
    body: { reference: "TRX-7788" },
    token: placed.token,
  });
  expect(sent.status).toBe(200);
  const verified = await client.api("PATCH", `/orders/${placed.id}/payment`, {
    body: { status: "verified" },
    token: adminToken,
  });
  expect(verified.status).toBe(200);
  return placed;
}

describe("the admin's pages read the order's life", () => {
  it("ship a verified transfer collecting nothing, confirmed by its payment; its slip says PAID", async () => {
    const { id } = await verifiedTransfer();
    const ship = (await pageOf(desk, `/admin/orders/${id}/ship`)).text;
    expect(ship).toContain("<dt>Collect</dt><dd>Nothing: paid in advance</dd>");
    expect(ship).toContain("<dt>Confirmation</dt><dd>Confirmed by its payment, verified</dd>");
    expect(ship).not.toContain("Rs. 145,000</dd>");
    const slip = (await pageOf(desk, `/admin/orders/${id}/slip`)).text;
    expect(slip).toContain("PAID: collect nothing");
    expect(slip).not.toContain("collect Rs.");
  });

  it("refuse an unverified transfer on the ship page before its form is filled", async () => {
    const { id } = await order({ paymentMethod: "Bank Transfer" });
    const ship = (await pageOf(desk, `/admin/orders/${id}/ship`)).text;
    expect(ship).toContain("This order cannot be shipped: This order is paid by bank transfer and its payment is not");
    expect(ship).toContain("<dd>Waiting for its payment to be verified</dd>");
    const slip = (await pageOf(desk, `/admin/orders/${id}/slip`)).text;
    expect(slip).toContain("Payment not verified yet: do not send it.");
  });

  it("say who confirmed a cash-on-delivery order and through what, and what the courier collects", async () => {
    const { id } = await order();
    const token = confirmationToken(server.config.sessionSecret, id);
    expect((await client.postForm(`/c/${token}`, { answer: "confirm" })).status).toBe(200);
    const ship = (await pageOf(desk, `/admin/orders/${id}/ship`)).text;
    expect(ship).toContain("<dd>Confirmed by the customer through the link in their message</dd>");
    expect(ship).toContain("<dt>Collect</dt><dd>Rs. 145,000</dd>");
    expect(ship).not.toContain("Confirmed by phone");
  });
});

describe("the customer's pages read the order's life", () => {
  it("show a new transfer order the account to pay, and no call to confirm it", async () => {
    const { id, email } = await order({ paymentMethod: "Bank Transfer" });
    const shopper = await signedInClient(server.baseUrl, email, "shopperpass1");
    const success = (await pageOf(shopper, `/order-success/${id}`)).text;
    expect(success).toContain("PK36MEZN0001234567890123");
    expect(success).toContain("As soon as your payment reaches us");
    expect(success).not.toContain("We call you");
  });

  it("tell the customer who cancels a verified transfer that it is refunded, and owe it on the admin's page", async () => {
    const { id, email } = await verifiedTransfer();
    const shopper = await signedInClient(server.baseUrl, email, "shopperpass1");
    const ask = (await pageOf(shopper, `/my-orders/${id}/cancel`)).text;
    expect(ask).toContain("the Rs. 145,000 you paid will be refunded to you");
    expect((await shopper.postForm(`/my-orders/${id}/cancel`, {})).status).toBe(303);
    const after = (await pageOf(shopper, `/my-orders/${id}`)).text;
    expect(after).toContain("We received Rs. 145,000 for this order and refund it to you within 5-7 business days.");
    expect(after).not.toContain("we ship your order next");
    expect((await pageOf(desk, `/admin/orders/${id}`)).text).toContain("Rs. 145,000 is owed to the customer");
    const mails = await server.database.db("outbox").where({ recipient: email, kind: "order-cancelled" });
    expect(mails).toHaveLength(1);
    expect(mails[0].textBody).toContain("Rs. 145,000");
  });
});
