/**
 * The store is nobody's SMS gateway (issue 45; RULINGS, sixth wave): a mobile number gets at most 3
 * confirmation requests in any 24 hours, whatever accounts place the orders. An order over the cap
 * is placed without its text and marked "text limit" for the admin (the API's
 * `confirmation.textLimited`, the admin list and the order's page); the admin's "Send again" is not
 * capped by it (it stays at 4 per order); a text older than 24 hours no longer counts; an order paid
 * in advance gets its payment text, which is not a confirmation request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let adminPages: TestClient;
const address = { street: "3 Jail Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://waqt.example" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Cap Admin", email: "admin@cap.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@cap.test", "adminpass1");
  adminPages = new TestClient(server.baseUrl);
  expect(
    (await adminPages.postForm("/login", { email: "admin@cap.test", password: "adminpass1", redirectTo: "" })).status,
  ).toBe(303);
});
afterAll(async () => {
  await server?.close();
});

let shoppers = 0;
type Shopper = { token: string };
async function newShopper(): Promise<Shopper> {
  shoppers += 1;
  const email = `capped${shoppers}@cap.test`;
  await insertUser(server, { name: `Sana ${shoppers}`, email, password: "shopperpass1" });
  return { token: await apiToken(client, email, "shopperpass1") };
}

async function place(shopper: Shopper, phone: string, body: Record<string, unknown> = {}) {
  const [productId] = await insertProducts(server, [{ name: `Capped Watch ${shoppers}-${phone}`, price: 4000 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token: shopper.token })).status).toBe(
    200,
  );
  const placed = await client.api("POST", "/orders", { body: { address, phone, ...body }, token: shopper.token });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body.data as { _id: string; confirmation: { textLimited: boolean } };
}

const textsOf = (orderId: string) =>
  server.database.db("order_messages").where({ order_id: orderId }).orderBy("created_at").select("kind", "channel");

const adminOrder = async (orderId: string) =>
  (await client.api("GET", `/orders/${orderId}`, { token: adminToken })).body.data as {
    confirmation: { textLimited: boolean };
  };

describe("confirmation requests to one number", () => {
  it("are at most 3 in 24 hours across accounts: the 4th order is placed, not texted, and marked for the admin", async () => {
    const [one, two] = [await newShopper(), await newShopper()];
    const phone = "0312-4500001";
    const texted = [await place(one, phone), await place(two, "+92 312 4500001"), await place(one, "03124500001")];
    for (const order of texted) {
      expect(order.confirmation.textLimited).toBe(false);
      expect(await textsOf(order._id)).toEqual([{ kind: "confirmation", channel: "file" }]);
    }
    const fourth = await place(two, phone);
    expect(fourth.confirmation.textLimited).toBe(true);
    expect(await textsOf(fourth._id)).toEqual([]);
    expect((await adminOrder(fourth._id)).confirmation.textLimited).toBe(true);
    expect((await adminOrder(texted[0]!._id)).confirmation.textLimited).toBe(false);
    // Another number is its own.
    const other = await place(two, "0312-4500002");
    expect(other.confirmation.textLimited).toBe(false);
    expect(await textsOf(other._id)).toHaveLength(1);

    // The admin sees it on the list and on the order's page.
    const short = fourth._id.slice(-8).toUpperCase();
    const list = await (await adminPages.get(`/admin/orders?search=${short}`)).text();
    expect(list).toContain(short);
    expect(list).toContain("Text limit");
    const page = await (await adminPages.get(`/admin/orders/${fourth._id}`)).text();
    expect(page).toContain("Text limit");
    expect(page).not.toContain("No messages: the order has no mobile number.");
  });

  it("do not hold back the admin's Send again, which stays at 4 texts an order", async () => {
    const shopper = await newShopper();
    const phone = "0312-4500003";
    for (let index = 0; index < 3; index += 1) await place(shopper, phone);
    const limited = await place(shopper, phone);
    expect(limited.confirmation.textLimited).toBe(true);
    for (let again = 1; again <= 4; again += 1) {
      const sent = await adminPages.postForm(`/admin/orders/${limited._id}`, { intent: "send-again" });
      expect(sent.status).toBe(303);
    }
    expect(await textsOf(limited._id)).toHaveLength(4);
    await adminPages.postForm(`/admin/orders/${limited._id}`, { intent: "send-again" });
    expect(await textsOf(limited._id)).toHaveLength(4);
  });

  it("count the last 24 hours only", async () => {
    const shopper = await newShopper();
    const phone = "0312-4500004";
    const earlier = [await place(shopper, phone), await place(shopper, phone), await place(shopper, phone)];
    expect((await place(shopper, phone)).confirmation.textLimited).toBe(true);
    // The first request was sent 24 hours and a minute ago: two remain in the window.
    await server.database
      .db("order_messages")
      .where({ order_id: earlier[0]!._id })
      .update({ created_at: server.database.db.raw("now() - interval '24 hours 1 minute'") });
    const next = await place(shopper, phone);
    expect(next.confirmation.textLimited).toBe(false);
    expect(await textsOf(next._id)).toHaveLength(1);
    expect((await place(shopper, phone)).confirmation.textLimited).toBe(true);
  });

  it("let only one of two checkouts at once take the last place", async () => {
    const [a, b, c] = [await newShopper(), await newShopper(), await newShopper()];
    const phone = "0312-4500005";
    await place(c, phone);
    await place(c, phone);
    for (const shopper of [a, b]) {
      const [productId] = await insertProducts(server, [{ name: `Raced Watch ${shoppers}`, price: 4000 }]);
      await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token: shopper.token });
    }
    const answers = await Promise.all(
      [a, b].map((shopper) => client.api("POST", "/orders", { body: { address, phone }, token: shopper.token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.body.data.confirmation.textLimited).sort()).toEqual([false, true]);
    const texts = await server.database
      .db("order_messages")
      .where({ phone: "+923124500005", kind: "confirmation" })
      .count<{ count: string }[]>("* as count");
    expect(Number(texts[0]!.count)).toBe(3);
  });

  it("leave an order paid in advance its payment text, which is not a confirmation request and does not count", async () => {
    const set = await client.api("PUT", "/settings/orders", {
      body: { bankAccountTitle: "Waqt Watches", bankName: "Meezan Bank", iban: "PK36MEZN0001234567890123" },
      token: adminToken,
    });
    expect(set.status).toBe(200);
    try {
      const shopper = await newShopper();
      const phone = "0312-4500006";
      for (let index = 0; index < 3; index += 1) await place(shopper, phone);
      const transfer = await place(shopper, phone, { paymentMethod: "Bank Transfer" });
      expect(transfer.confirmation.textLimited).toBe(false);
      expect(await textsOf(transfer._id)).toEqual([{ kind: "payment-awaited", channel: "file" }]);

      const fresh = "0312-4500007";
      for (let index = 0; index < 3; index += 1) await place(shopper, fresh, { paymentMethod: "Bank Transfer" });
      const cod = await place(shopper, fresh);
      expect(cod.confirmation.textLimited).toBe(false);
      expect(await textsOf(cod._id)).toEqual([{ kind: "confirmation", channel: "file" }]);
    } finally {
      await client.api("PUT", "/settings/orders", {
        body: { bankAccountTitle: null, bankName: null, iban: null },
        token: adminToken,
      });
    }
  });
});
