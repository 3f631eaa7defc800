/**
 * The customer's confirmation of a cash-on-delivery order (docs/product.md, "Confirming an
 * order"): the order's confirmation and language in the API, its confirmation text written with
 * it, and the /c/{token} page in the order's language, confirming and cancelling without signing in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { confirmationToken } from "../../server/modules/confirmation/order-confirmation";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, {
    name: "Desk Admin",
    email: "admin@confirmation.test",
    password: "adminpass1",
    role: "admin",
  });
  adminToken = await apiToken(client, "admin@confirmation.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("orders").del();
});

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

let shopperCount = 0;
/** A fresh customer with a token and a watch (stock 5) in the cart. */
async function shopperWithCart(quantity = 1) {
  shopperCount += 1;
  const email = `shopper${shopperCount}@confirmation.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Ayesha ${shopperCount}`, email, passwordHash: await hashPassword("shopperpass1", 4), phone: "" })
    .returning("id");
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Rado Centrix ${shopperCount}`, price: 45000, stock: 5 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity }, token })).status).toBe(200);
  return { id: row.id as string, token, productId: productId! };
}

async function placedOrder(body: Record<string, unknown> = { phone: "0300-1234567" }, quantity = 1) {
  const shopper = await shopperWithCart(quantity);
  const placed = await client.api("POST", "/orders", { body: { address, ...body }, token: shopper.token });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  return {
    ...shopper,
    orderId,
    order: placed.body.data,
    link: `/c/${confirmationToken(server.config.sessionSecret, orderId)}`,
  };
}

const getOrder = async (orderId: string) =>
  (await client.api("GET", `/orders/${orderId}`, { token: adminToken })).body.data;
const stockOf = async (productId: string) =>
  (await server.database.db("products").where({ id: productId }).first("stock")).stock as number;
const textsOf = (orderId: string) =>
  server.database
    .db("order_messages")
    .where({ order_id: orderId })
    .orderBy("created_at")
    .select("channel", "kind", "language", "phone", "status");

describe("placing an order", () => {
  it("answers its confirmation pending and its language, Urdu for a mobile number, and writes its confirmation text", async () => {
    const { orderId, order } = await placedOrder();
    expect(order).toMatchObject({
      confirmation: { status: "pending", by: null, channel: null, at: null },
      language: "ur",
      cancelReason: null,
      confirmedAt: null,
    });
    expect(await getOrder(orderId)).toMatchObject({ confirmation: order.confirmation, language: "ur" });
    expect(await textsOf(orderId)).toEqual([
      { channel: "file", kind: "confirmation", language: "ur", phone: "+923001234567", status: "queued" },
    ]);
    const list = await client.api("GET", "/orders", { token: adminToken });
    expect(list.body.data[0]).toMatchObject({ _id: orderId, confirmation: { status: "pending" }, language: "ur" });
  });

  it("takes the language chosen, keeps it on the account for the next order, and writes no text without a phone", async () => {
    const first = await placedOrder({ phone: "0300-1234567", language: "en" });
    expect(first.order.language).toBe("en");
    expect((await server.database.db("users").where({ id: first.id }).first("language")).language).toBe("en");
    expect(await textsOf(first.orderId)).toMatchObject([{ language: "en" }]);
    // The same customer again, choosing nothing: the account's choice.
    const [productId] = await insertProducts(server, [{ name: "Second Watch", price: 1000, stock: 2 }]);
    await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token: first.token });
    const second = await client.api("POST", "/orders", {
      body: { address, phone: "0300-7654321" },
      token: first.token,
    });
    expect(second.body.data.language).toBe("en");

    const noPhone = await placedOrder({});
    expect(noPhone.order).toMatchObject({ phone: null, language: "en" });
    expect(await textsOf(noPhone.orderId)).toEqual([]);
  });

  it("refuses a language it does not speak, beside the field, and places nothing", async () => {
    const shopper = await shopperWithCart();
    const refused = await client.api("POST", "/orders", {
      body: { address, phone: "0300-1234567", language: "fr" },
      token: shopper.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "language", message: "Messages must be in ur (Urdu) or en (English)" },
    ]);
    expect(await server.database.db("orders").count("* as count").first()).toEqual({ count: 0 });
  });
});

describe("the confirmation link's page", () => {
  it("shows the order in Urdu, right to left, with its items, total and the phone's last four digits, and no sign-in", async () => {
    const { link } = await placedOrder({ phone: "0321-7654567" });
    const response = await new TestClient(server.baseUrl).get(link);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toMatch(/<html lang="ur" dir="rtl"/);
    expect(html).toContain("اپنے آرڈر کی تصدیق کریں");
    expect(html).toContain("Rado Centrix");
    expect(html).toContain("Rs. 45,000");
    expect(html).toContain("فون نمبر جس کے آخری ہندسے 4567 ہیں");
    expect(html).toContain("آرڈر کی تصدیق کریں");
    expect(html).toContain("آرڈر منسوخ کریں");
    expect(html).not.toContain("0321");
  });

  it("shows it in English for an order in English; a token of no order is the 404 page", async () => {
    const { link } = await placedOrder({ phone: "0300-1234567", language: "en" });
    const html = await (await client.get(link)).text();
    expect(html).toMatch(/<html lang="en" dir="ltr"/);
    expect(html).toContain("Confirm your order");
    expect(html).toContain("Phone number ending in 4567");
    expect((await client.get(`/c/${"B".repeat(43)}`)).status).toBe(404);
    expect((await client.get("/c/short")).status).toBe(404);
  });

  it("confirms the order (by the customer, through the link, confirmedAt set); confirming twice changes nothing", async () => {
    const { orderId, link } = await placedOrder({ phone: "0300-1234567", language: "en" });
    const guest = new TestClient(server.baseUrl);
    const confirmed = await guest.postForm(link, { answer: "confirm" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Thank you! Your order is confirmed");
    const order = await getOrder(orderId);
    expect(order.confirmation).toMatchObject({ status: "confirmed", by: "customer", channel: "link" });
    expect(order.confirmedAt).toBe(order.confirmation.at);
    const again = await guest.postForm(link, { answer: "confirm" });
    expect(again.status).toBe(200);
    expect(await getOrder(orderId)).toEqual(order);
  });

  it("cancels the order as /my-orders does: its stock and its discount code's use come back, at any age while Pending", async () => {
    await server.database.db("discount_codes").insert({ code: "LINK10", type: "percent", value: 10, maxUses: 1 });
    const { orderId, productId, link } = await placedOrder({ phone: "0300-1234567", discountCode: "LINK10" }, 2);
    expect(await stockOf(productId)).toBe(3);
    // Older than the 2 hours of /my-orders: the confirmation's cancel still works.
    await server.database
      .db("orders")
      .where({ id: orderId })
      .update({ created_at: new Date(Date.now() - 30 * 3600_000) });
    const cancelled = await new TestClient(server.baseUrl).postForm(link, { answer: "cancel" });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain("آپ کا آرڈر منسوخ کر دیا گیا ہے۔");
    expect(await stockOf(productId)).toBe(5);
    const order = await getOrder(orderId);
    expect(order).toMatchObject({
      status: "Cancelled",
      confirmation: { status: "cancelled", by: "customer", channel: "link" },
    });
    expect(order.confirmedAt).toBeNull();
    const codes = await client.api("GET", "/discounts", { token: adminToken });
    expect(codes.body.data.find((code: { code: string }) => code.code === "LINK10").usedCount).toBe(0);
    expect(await textsOf(orderId)).toMatchObject([{ kind: "confirmation" }, { kind: "cancellation", language: "ur" }]);
    const mails = await server.database
      .db("outbox")
      .where("subject", "like", `%${orderId.slice(-8).toUpperCase()}%cancelled%`);
    expect(mails.length).toBeGreaterThanOrEqual(1);
  });

  it("stops working once the order ships or is cancelled: the page says so and a post changes nothing (409)", async () => {
    const { orderId, link } = await placedOrder({ phone: "0300-1234567", language: "en" });
    expect(
      (await client.api("PATCH", `/orders/${orderId}/status`, { body: { status: "Shipped" }, token: adminToken }))
        .status,
    ).toBe(200);
    const page = await (await client.get(link)).text();
    expect(page).toContain("This link no longer works");
    expect(page).not.toContain('value="cancel"');
    const before = await getOrder(orderId);
    expect((await client.postForm(link, { answer: "cancel" })).status).toBe(409);
    expect((await client.postForm(link, { answer: "confirm" })).status).toBe(409);
    expect(await getOrder(orderId)).toEqual(before);
  });

  it("refuses a cancel once the order is booked with a courier (a tracking number on a Pending order)", async () => {
    const { orderId, link } = await placedOrder({ phone: "0300-1234567", language: "en" });
    await server.database.db("orders").where({ id: orderId }).update({ courier: "TCS", tracking_number: "TCS-12345" });
    expect((await client.postForm(link, { answer: "cancel" })).status).toBe(409);
    expect((await getOrder(orderId)).status).toBe("Pending");
  });
});

describe("the admin's confirmation by phone", () => {
  it("is the confirmation by an admin, channel phone, and sets confirmedAt as before", async () => {
    const { orderId } = await placedOrder();
    const confirmed = await client.api("POST", `/orders/${orderId}/confirm`, { token: adminToken });
    expect(confirmed.body.data.confirmation).toMatchObject({ status: "confirmed", by: "admin", channel: "phone" });
    expect(confirmed.body.data.confirmedAt).toBe(confirmed.body.data.confirmation.at);
  });
});

describe('the checkout page\'s "Messages in"', () => {
  async function signedInWithCart() {
    shopperCount += 1;
    const email = `page${shopperCount}@confirmation.test`;
    await insertUser(server, { name: `Page ${shopperCount}`, email, password: "shopperpass1" });
    const shopper = new TestClient(server.baseUrl);
    expect((await shopper.postForm("/login", { email, password: "shopperpass1", redirectTo: "" })).status).toBe(303);
    const [productId] = await insertProducts(server, [{ name: `Page Watch ${shopperCount}`, price: 9000, stock: 3 }]);
    await shopper.postForm("/cart", { intent: "add", productId: productId!, quantity: "1", then: "cart" });
    return shopper;
  }
  const checkoutKeyOf = (page: string) => /name="checkoutKey" value="([^"]+)"/.exec(page)![1]!;

  it("offers اردو (chosen) and English; the choice is the order's and becomes the next checkout's", async () => {
    const shopper = await signedInWithCart();
    const page = await (await shopper.get("/checkout")).text();
    expect(page).toContain("<legend>Messages in</legend>");
    expect(page).toMatch(/<input type="radio" name="language" checked="" value="ur"/);
    expect(page).toContain("اردو");
    const placed = await shopper.postForm("/checkout", {
      ...address,
      phone: "0300-1234567",
      language: "en",
      checkoutKey: checkoutKeyOf(page),
    });
    expect(placed.status).toBe(303);
    const orderId = placed.headers.get("location")!.split("/").pop()!;
    expect((await getOrder(orderId)).language).toBe("en");
    await shopper.postForm("/cart", {
      intent: "add",
      productId: (await insertProducts(server, [{ name: "Next Watch", price: 100, stock: 1 }]))[0]!,
      quantity: "1",
      then: "cart",
    });
    expect(await (await shopper.get("/checkout")).text()).toMatch(
      /<input type="radio" name="language" checked="" value="en"/,
    );
  });

  it("refuses another value beside the choice, keeping what was typed", async () => {
    const shopper = await signedInWithCart();
    const page = await (await shopper.get("/checkout")).text();
    const refused = await shopper.postForm("/checkout", {
      ...address,
      phone: "0300-1234567",
      language: "fr",
      checkoutKey: checkoutKeyOf(page),
    });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("Messages must be in ur (Urdu) or en (English)");
    expect(text).toContain('value="12 Mall Road"');
  });
});

describe("the admin's desk", () => {
  async function adminPages() {
    const admin = new TestClient(server.baseUrl);
    expect(
      (await admin.postForm("/login", { email: "admin@confirmation.test", password: "adminpass1", redirectTo: "" }))
        .status,
    ).toBe(303);
    return admin;
  }
  const numberOf = (id: string) => `#${id.slice(-8).toUpperCase()}`;

  it("filters the order list by confirmation: waiting, confirmed, cancelled by the customer, not answered", async () => {
    const waiting = await placedOrder();
    const confirmed = await placedOrder();
    const cancelled = await placedOrder();
    const notAnswered = await placedOrder();
    await client.postForm(confirmed.link, { answer: "confirm" });
    await client.postForm(cancelled.link, { answer: "cancel" });
    await server.database
      .db("orders")
      .where({ id: notAnswered.orderId })
      .update({ status: "Cancelled", cancel_reason: "Not confirmed" });
    const admin = await adminPages();
    const listed = async (confirmation: string) => {
      const page = await (await admin.get(`/admin/orders?confirmation=${confirmation}`)).text();
      return [waiting, confirmed, cancelled, notAnswered].filter((order) => page.includes(numberOf(order.orderId)));
    };
    expect(await listed("pending")).toEqual([waiting]);
    expect(await listed("confirmed")).toEqual([confirmed]);
    expect(await listed("cancelled")).toEqual([cancelled]);
    expect(await listed("not-answered")).toEqual([notAnswered]);
    const all = await (await admin.get("/admin/orders")).text();
    expect(all).toContain("Confirmed by the customer (the confirmation link)");
    expect(all).toContain("Cancelled by the customer (the confirmation link)");
    expect(all).toContain("Not answered: cancelled by the store");
    expect(all).toContain('<option value="not-answered">Not answered (cancelled)</option>');
  });

  it("shows the order's messages and replies, and sends the confirmation again a few times at most", async () => {
    const { orderId } = await placedOrder();
    await server.database.db("order_message_replies").insert({
      order_id: orderId,
      channel: "sms",
      provider_message_id: "SMadminpage",
      phone: "+923001234567",
      body: "kal deliver ho jaye?",
      action: "none",
    });
    const admin = await adminPages();
    const page = await (await admin.get(`/admin/orders/${orderId}`)).text();
    expect(page).toContain("Messages to the customer");
    expect(page).toMatch(/<td>Confirmation<\/td><td>file \(no channel configured\)<\/td><td>Urdu<\/td><td>queued/);
    expect(page).toContain("“kal deliver ho jaye?”</span> by SMS");
    expect(page).toContain("Send again");
    for (let again = 1; again <= 3; again += 1) {
      const sent = await admin.postForm(`/admin/orders/${orderId}`, { intent: "send-again" });
      expect(sent.headers.get("location")).toBe(`/admin/orders/${orderId}`);
    }
    expect(await textsOf(orderId)).toHaveLength(4);
    await admin.postForm(`/admin/orders/${orderId}`, { intent: "send-again" });
    expect(await textsOf(orderId)).toHaveLength(4);
    expect(await (await admin.get(`/admin/orders/${orderId}`)).text()).toContain(
      "This order&#x27;s confirmation was already sent 4 times",
    );
  });

  it("shows today's confirmation rate and the orders waiting on the dashboard", async () => {
    const first = await placedOrder();
    await placedOrder();
    await placedOrder({});
    await client.postForm(first.link, { answer: "confirm" });
    const page = await (await (await adminPages()).get("/admin")).text();
    expect(page).toContain("Confirmed Today");
    expect(page).toContain(">50%<");
    expect(page).toContain("1 of 2 orders asked today");
    expect(page).toContain("1 waiting for the customer&#x27;s answer");
  });
});
