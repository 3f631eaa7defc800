/**
 * The merchant's cash-on-delivery rules (docs/product.md, "Cash-on-delivery rules"), set through
 * GET/PUT /api/v1/settings/orders and /admin/settings/orders, applied by checkout through the API
 * and the checkout page: each rule at its boundary (a limit is "at most"), the blocklist, two
 * checkouts at once against the open-orders limit, and every refusal counted with its rule while
 * the cart, the stock and the form stay as they were.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";
import { confirmationToken } from "../../server/modules/confirmation/order-confirmation";
import { DEFAULT_ORDER_RULES } from "../../server/modules/confirmation/order-rules.shared";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let adminPages: TestClient;
const address = { street: "7 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const RULES_OFF = { blockAfterReturns: null, firstTimeCodLimit: null, codLimit: null, openCodOrders: null };

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Rules Admin", email: "admin@rules.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@rules.test", "adminpass1");
  adminPages = new TestClient(server.baseUrl);
  expect(
    (await adminPages.postForm("/login", { email: "admin@rules.test", password: "adminpass1", redirectTo: "" })).status,
  ).toBe(303);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("order_blocklist").del();
  await setRules(RULES_OFF);
});

async function setRules(body: Record<string, unknown>) {
  const answer = await client.api("PUT", "/settings/orders", { body, token: adminToken });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

let shoppers = 0;
type Shopper = { id: string; email: string; token: string };
async function newShopper(): Promise<Shopper> {
  shoppers += 1;
  const email = `shopper${shoppers}@rules.test`;
  const id = await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  return { id, email, token: await apiToken(client, email, "shopperpass1") };
}

/** Puts a watch of this price (10 in stock) in the shopper's cart, and answers its id. */
async function cartOf(shopper: Shopper, price: number): Promise<string> {
  const [productId] = await insertProducts(server, [{ name: `Rule Watch ${shoppers}-${price}`, price, stock: 10 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token: shopper.token })).status).toBe(
    200,
  );
  return productId!;
}

async function checkout(shopper: Shopper, price: number, phone?: string) {
  const productId = await cartOf(shopper, price);
  const answer = await client.api("POST", "/orders", {
    body: { address, ...(phone ? { phone } : {}) },
    token: shopper.token,
  });
  return { answer, productId };
}

async function placed(shopper: Shopper, price: number, phone?: string): Promise<string> {
  const { answer } = await checkout(shopper, price, phone);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data._id;
}

/** A refusal: 409 with the rule's code, nothing placed, the cart and the stock as they were. */
async function expectRefused(shopper: Shopper, price: number, phone: string | undefined, code: string) {
  const before = Number((await server.database.db("orders").count("* as count").first())!.count);
  const { answer, productId } = await checkout(shopper, price, phone);
  expect(answer.status, JSON.stringify(answer.body)).toBe(409);
  expect(answer.body).toEqual({ success: false, message: expect.any(String), code });
  expect(Number((await server.database.db("orders").count("* as count").first())!.count)).toBe(before);
  expect((await server.database.db("products").where({ id: productId }).first()).stock).toBe(10);
  const cart = await client.api("GET", "/cart", { token: shopper.token });
  expect(cart.body.data.cart.items.map((item: { product: { _id: string } }) => item.product._id)).toContain(productId);
  // Emptied again, so that the shopper's next order holds only its own watch.
  await client.api("DELETE", "/cart", { token: shopper.token });
  return answer.body.message as string;
}

const setStatus = async (orderId: string, status: string) =>
  expect((await client.api("PATCH", `/orders/${orderId}/status`, { body: { status }, token: adminToken })).status).toBe(
    200,
  );

describe("the first-time limit", () => {
  it("lets a phone without a delivered order order exactly the limit, not a paisa more, until one is delivered", async () => {
    await setRules({ firstTimeCodLimit: 10_000 });
    const shopper = await newShopper();
    const first = await placed(shopper, 10_000, "0311-1000001");
    const message = await expectRefused(shopper, 10_000.01, "0311-1000001", "COD_LIMIT");
    expect(message).toBe(
      "A first cash-on-delivery order can be at most Rs. 10,000; this one is Rs. 10,000.01. Remove some items, or pay in advance: please contact us.",
    );
    // Another account's delivered order of the same phone makes it not first-time.
    await setStatus(first, "Delivered");
    await placed(await newShopper(), 25_000, "0311-1000001");
    // Without a phone, the account's own delivered orders decide.
    const noPhone = await newShopper();
    await expectRefused(noPhone, 10_000.01, undefined, "COD_LIMIT");
    await setStatus(await placed(noPhone, 10_000), "Delivered");
    await placed(noPhone, 10_000.01);
  });
});

describe("the limit for anyone", () => {
  it("passes exactly the limit and refuses a paisa more, whatever the record", async () => {
    await setRules({ codLimit: 15_000 });
    const shopper = await newShopper();
    await setStatus(await placed(shopper, 15_000, "0311-2000002"), "Delivered");
    const message = await expectRefused(shopper, 15_000.01, "0311-2000002", "COD_LIMIT");
    expect(message).toContain("A cash-on-delivery order can be at most Rs. 15,000");
    await expectRefused(shopper, 15_000.01, undefined, "COD_LIMIT");
  });
});

describe("open orders per phone", () => {
  it("takes up to the limit of open orders of a phone across accounts; a delivered or cancelled one frees a place", async () => {
    await setRules({ openCodOrders: 2 });
    const one = await newShopper();
    const two = await newShopper();
    const first = await placed(one, 1000, "0311-3000003");
    await placed(two, 1000, "+92 311 3000003");
    const message = await expectRefused(one, 1000, "0311-3000003", "COD_OPEN_ORDERS");
    expect(message).toContain("This mobile number already has 2 cash-on-delivery orders on the way");
    // Another number, or none, is not this phone's.
    await placed(one, 1000, "0311-3000004");
    // (A shopper whose profile has no phone: the API's order without one takes the profile's.)
    await placed(await newShopper(), 1000);
    await setStatus(first, "Cancelled");
    await placed(one, 1000, "0311-3000003");
  });

  it("lets only one of two checkouts at once through when one place is left", async () => {
    await setRules({ openCodOrders: 2 });
    const earlier = await newShopper();
    await placed(earlier, 1000, "0311-4000004");
    const [a, b] = [await newShopper(), await newShopper()];
    await cartOf(a, 2000);
    await cartOf(b, 2000);
    const answers = await Promise.all(
      [a, b].map((shopper) =>
        client.api("POST", "/orders", { body: { address, phone: "0311-4000004" }, token: shopper.token }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.code).toBe("COD_OPEN_ORDERS");
    expect(await server.database.db("orders").where({ phone: "+923114000004" })).toHaveLength(2);
  });
});

describe("the customer's own cancellations", () => {
  it("count as open for the phone's limit for 24 hours, cancelled under My Orders or from the confirmation", async () => {
    await setRules({ openCodOrders: 2 });
    const [one, two] = [await newShopper(), await newShopper()];
    const phone = "0311-3100001";
    const first = await placed(one, 1000, phone);
    expect((await client.api("POST", `/orders/${first}/cancel`, { token: one.token })).status).toBe(200);
    const second = await placed(two, 1000, phone);
    const message = await expectRefused(two, 1000, phone, "COD_OPEN_ORDERS");
    expect(message).toBe(
      "This mobile number already has 1 cash-on-delivery order on the way and 1 cancelled in the last 24 hours, the most we take in a day. You can order again when one is delivered or a day after the cancellation, or pay in advance: please contact us.",
    );
    // Cancelled from the confirmation's link, it counts the same.
    const link = `/c/${confirmationToken(server.config.sessionSecret, second)}`;
    expect((await client.postForm(link, { answer: "cancel" })).status).toBe(200);
    expect((await server.database.db("orders").where({ id: second }).first()).status).toBe("Cancelled");
    await expectRefused(one, 1000, phone, "COD_OPEN_ORDERS");
    // A day after the cancellations they no longer count.
    await server.database
      .db("orders")
      .whereIn("id", [first, second])
      .update({ updatedAt: server.database.db.raw("now() - interval '24 hours 1 minute'") });
    await placed(one, 1000, phone);
  });
});

describe("orders without a phone", () => {
  it("are held to the open-orders limit by their account, its own cancellations of the last 24 hours included", async () => {
    await setRules({ openCodOrders: 2 });
    const shopper = await newShopper();
    const first = await placed(shopper, 1000);
    expect((await client.api("POST", `/orders/${first}/cancel`, { token: shopper.token })).status).toBe(200);
    await placed(shopper, 1000);
    const message = await expectRefused(shopper, 1000, undefined, "COD_OPEN_ORDERS");
    expect(message).toBe(
      "Your account already has 1 cash-on-delivery order on the way and 1 cancelled in the last 24 hours, the most we take in a day. You can order again when one is delivered or a day after the cancellation, or pay in advance: please contact us.",
    );
    // Another account is not this one.
    await placed(await newShopper(), 1000);
    // The account's limit is for orders without a phone: one with a number is judged by that number.
    await placed(shopper, 1000, "0311-3200001");
  });

  it("keep the seed's client working: an order through the API without a phone under the store's default rules", async () => {
    await setRules(DEFAULT_ORDER_RULES);
    const shopper = await newShopper();
    const { answer } = await checkout(shopper, 12_500);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({ phone: null, status: "Pending", totalPrice: 12_500 });
    expect(answer.body.data.confirmation.textLimited).toBe(false);
    expect(await server.database.db("order_messages").where({ order_id: answer.body.data._id })).toEqual([]);
    await placed(shopper, 8_000);
  });
});

describe("blocks", () => {
  it("refuses a phone at N returns to sender, not before", async () => {
    await setRules({ blockAfterReturns: 2 });
    const shopper = await newShopper();
    const returnToSender = async () => {
      const orderId = await placed(shopper, 1000, "0311-5000005");
      await setStatus(orderId, "Shipped");
      const outcome = await client.api("POST", `/orders/${orderId}/outcome`, {
        body: { kind: "returned", reason: "Refused at the door" },
        token: adminToken,
      });
      expect(outcome.status).toBe(200);
    };
    await returnToSender();
    await returnToSender();
    const message = await expectRefused(await newShopper(), 1000, "0311-5000005", "COD_BLOCKED");
    expect(message).toBe(
      "Cash on delivery is not available for this mobile number: 2 earlier parcels were returned to sender. You can still order it by paying in advance: please contact us.",
    );
    await setRules({ blockAfterReturns: 3 });
    await placed(shopper, 1000, "0311-5000005");
  });

  it("refuses a blocked phone or email; an order without a phone is judged by the account's email", async () => {
    const shopper = await newShopper();
    await setRules({ blocklist: [{ value: "0311-6000006", note: "Refused three parcels" }] });
    await expectRefused(shopper, 1000, "03116000006", "COD_BLOCKED");
    await placed(shopper, 1000, "0311-6000007");
    // Without a phone (here or in the profile) a blocked phone has nothing to match.
    await server.database.db("users").where({ id: shopper.id }).update({ phone: "" });
    await placed(shopper, 1000);
    await setRules({ blocklist: [{ value: shopper.email.toUpperCase(), note: "" }] });
    await expectRefused(shopper, 1000, "0311-6000007", "COD_BLOCKED");
    // Through the API without a phone, the account's email is still blocked (issue 45).
    const message = await expectRefused(shopper, 1000, undefined, "COD_BLOCKED");
    expect(message).toBe(
      "Cash on delivery is not available for this account's email. You can still order it by paying in advance: please contact us.",
    );
    await placed(await newShopper(), 1000);
  });
});

describe("the settings", () => {
  it("are read and changed by admins, each rule off with null, the blocklist with who added it", async () => {
    const changed = await setRules({
      blockAfterReturns: 3,
      firstTimeCodLimit: "45000.50",
      codLimit: 200_000,
      openCodOrders: 4,
      blocklist: [
        { value: "+92 300 7654321", note: "Fake orders" },
        { value: "Spam@Example.com", note: "" },
      ],
    });
    expect(changed).toMatchObject({
      blockAfterReturns: 3,
      firstTimeCodLimit: 45_000.5,
      codLimit: 200_000,
      openCodOrders: 4,
    });
    expect(
      changed.blocklist
        .map((entry: { kind: string; value: string; addedBy: string }) => [entry.kind, entry.value, entry.addedBy])
        .sort(),
    ).toEqual([
      ["email", "spam@example.com", "Rules Admin"],
      ["phone", "+923007654321", "Rules Admin"],
    ]);
    // A rule not sent stays; null turns one off.
    const read = await setRules({ codLimit: null });
    expect(read).toMatchObject({ blockAfterReturns: 3, codLimit: null, openCodOrders: 4 });
    expect(read.blocklist).toHaveLength(2);
    expect((await client.api("GET", "/settings/orders", { token: adminToken })).body.data).toEqual(read);
  });

  it("refuses bad values by field (400) and changes nothing", async () => {
    await setRules({ openCodOrders: 2 });
    const refused = await client.api("PUT", "/settings/orders", {
      body: {
        blockAfterReturns: 0,
        firstTimeCodLimit: "lots",
        codLimit: -5,
        openCodOrders: 1.5,
        blocklist: [{ value: "0300-12", note: "x" }],
      },
      token: adminToken,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "blockAfterReturns", message: "Returns to sender must be at least 1, or empty for off" },
      { field: "firstTimeCodLimit", message: "First-time limit must be a number, or empty for off" },
      { field: "codLimit", message: "Cash-on-delivery limit must be at least 1, or empty for off" },
      { field: "openCodOrders", message: "Open orders must be a whole number" },
      {
        field: "blocklist[0].value",
        message: "Enter a mobile number (a Pakistani mobile number, e.g. 0300-1234567) or an email address",
      },
    ]);
    const now = (await client.api("GET", "/settings/orders", { token: adminToken })).body.data;
    expect(now).toMatchObject({ ...RULES_OFF, openCodOrders: 2, blocklist: [] });
  });

  it("keep the average shipping cost of a parcel each way, which the deliveries report prices returns at", async () => {
    expect(
      (await client.api("GET", "/settings/orders", { token: adminToken })).body.data.parcelShippingCost,
    ).toBeNull();
    const refused = await client.api("PUT", "/settings/orders", {
      body: { parcelShippingCost: "250.555" },
      token: adminToken,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "parcelShippingCost", message: "Average shipping cost must have at most 2 decimals" },
    ]);
    // Not a rule: setting it leaves checkout's rules off.
    expect(await setRules({ parcelShippingCost: "250.50" })).toMatchObject({ ...RULES_OFF, parcelShippingCost: 250.5 });

    const page = await adminPages.postForm("/admin/settings/orders", {
      intent: "rules",
      blockAfterReturns: "",
      firstTimeCodLimit: "",
      codLimit: "",
      openCodOrders: "",
      parcelShippingCost: "-1",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Average shipping cost must be at least 0, or empty for off");
    expect((await client.api("GET", "/settings/orders", { token: adminToken })).body.data.parcelShippingCost).toBe(
      250.5,
    );
    await setRules({ parcelShippingCost: null });
  });

  it("count every refusal, and the admin's page lists the latest with their rule", async () => {
    await setRules({ codLimit: 500 });
    const before = (await client.api("GET", "/settings/orders", { token: adminToken })).body.data.refusals.count;
    const shopper = await newShopper();
    await expectRefused(shopper, 777, "0311-7000007", "COD_LIMIT");
    const after = (await client.api("GET", "/settings/orders", { token: adminToken })).body.data.refusals;
    expect(after.count).toBe(before + 1);
    expect(after.latest[0]).toMatchObject({
      code: "COD_LIMIT",
      rule: "Cash-on-delivery limit",
      phone: "+923117000007",
      email: shopper.email,
      amount: 777,
    });
    const page = await (await adminPages.get("/admin/settings/orders")).text();
    expect(page).toContain("Cash-on-delivery limit (COD_LIMIT)");
    expect(page).toContain(`${shopper.email}, 0311-7000007`);
  });
});

describe("the pages", () => {
  it("change the rules and the blocklist with plain forms, a refused value beside its field with every value kept", async () => {
    const refused = await adminPages.postForm("/admin/settings/orders", {
      intent: "rules",
      blockAfterReturns: "2",
      firstTimeCodLimit: "50000",
      codLimit: "",
      openCodOrders: "zero",
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain("Open orders must be a number, or empty for off");
    expect(page).toMatch(
      /<input[^>]*name="openCodOrders"[^>]*value="zero"|<input[^>]*value="zero"[^>]*name="openCodOrders"/,
    );
    expect((await client.api("GET", "/settings/orders", { token: adminToken })).body.data).toMatchObject(RULES_OFF);

    const saved = await adminPages.postForm("/admin/settings/orders", {
      intent: "rules",
      blockAfterReturns: "2",
      firstTimeCodLimit: "50000",
      codLimit: "",
      openCodOrders: "2",
    });
    expect(saved.status).toBe(303);
    expect((await client.api("GET", "/settings/orders", { token: adminToken })).body.data).toMatchObject({
      blockAfterReturns: 2,
      firstTimeCodLimit: 50_000,
      codLimit: null,
      openCodOrders: 2,
    });

    const bad = await adminPages.postForm("/admin/settings/orders", { intent: "block", value: "nobody", note: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      "Enter a mobile number (a Pakistani mobile number, e.g. 0300-1234567) or an email address",
    );
    expect(
      (
        await adminPages.postForm("/admin/settings/orders", {
          intent: "block",
          value: "0345 1234567",
          note: "Called us names",
        })
      ).status,
    ).toBe(303);
    const listed = await (await adminPages.get("/admin/settings/orders")).text();
    expect(listed).toContain("0345-1234567");
    expect(listed).toContain("Called us names");
    expect(listed).toContain("Rules Admin");
    const [entry] = await server.database.db("order_blocklist");
    expect((await adminPages.postForm("/admin/settings/orders", { intent: "unblock", entryId: entry.id })).status).toBe(
      303,
    );
    expect(await server.database.db("order_blocklist")).toEqual([]);
  });

  it("tell a refused shopper why beside the checkout form, keeping every field and the cart", async () => {
    await setRules({ firstTimeCodLimit: 5000 });
    const shopper = await newShopper();
    const pages = new TestClient(server.baseUrl);
    await pages.postForm("/login", { email: shopper.email, password: "shopperpass1", redirectTo: "" });
    const productId = await cartOf(shopper, 5000.5);
    const form = { ...address, street: "42 Canal Bank Road", phone: "0311-8000008", checkoutKey: "rules-page-1" };
    const refused = await pages.postForm("/checkout", form);
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain(
      "A first cash-on-delivery order can be at most Rs. 5,000; this one is Rs. 5,000.50. Remove some items, or pay in advance: please contact us.",
    );
    expect(page).toContain('value="42 Canal Bank Road"');
    expect(page).toContain('value="0311-8000008"');
    const cart = await client.api("GET", "/cart", { token: shopper.token });
    expect(cart.body.data.cart.items.map((item: { product: { _id: string } }) => item.product._id)).toEqual([
      productId,
    ]);
    // Exactly the limit passes through the page too.
    await client.api("DELETE", "/cart", { token: shopper.token });
    await cartOf(shopper, 5000);
    const placedPage = await pages.postForm("/checkout", { ...form, checkoutKey: "rules-page-2" });
    expect(placedPage.status).toBe(303);
  });
});
