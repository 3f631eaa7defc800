/**
 * The parcel's outcome (docs/product.md, "Returned to sender"), through the API and the admin's
 * pages: a Shipped order marked returned to sender becomes Cancelled with its reason, the customer
 * is not mailed and the store's outbox records it; its stock comes back when the parcel is
 * received back, once; every refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let adminPages: TestClient;
const clock = new TestClock();

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.now });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@outcome.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@outcome.test", "adminpass1");
  adminPages = new TestClient(server.baseUrl);
  const signedIn = await adminPages.postForm("/login", {
    email: "admin@outcome.test",
    password: "adminpass1",
    redirectTo: "",
  });
  expect(signedIn.status).toBe(303);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  clock.set("2026-12-01T09:00:00Z");
});

let shoppers = 0;
/** A shopper's order of 2 of a watch (10 in stock), placed through the API with `phone`, then moved to `status`. */
async function orderOf(options: { status?: string; phone?: string } = {}) {
  shoppers += 1;
  const email = `shopper${shoppers}@outcome.test`;
  await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Outcome Watch ${shoppers}`, price: 12_000, stock: 10 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 2 }, token })).status).toBe(200);
  const placed = await client.api("POST", "/orders", {
    body: { address, phone: options.phone ?? "0300-1234567" },
    token,
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  const status = options.status ?? "Shipped";
  if (status !== "Pending") {
    const moved = await client.api("PATCH", `/orders/${orderId}/status`, { body: { status }, token: adminToken });
    expect(moved.status).toBe(200);
  }
  return { orderId, productId: productId!, email, token };
}

const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
const mailKinds = async (recipient: string) =>
  (await server.database.db("outbox").where({ recipient }).orderBy("kind")).map((row) => row.kind as string);
const outcome = (orderId: string, body: unknown, token = adminToken) =>
  client.api("POST", `/orders/${orderId}/outcome`, { body, token });
const receivedBack = (orderId: string, token = adminToken) =>
  client.api("POST", `/orders/${orderId}/received-back`, { token });

describe("returned to sender, through the API", () => {
  it("cancels a shipped order with its reason, mails the store and not the customer, and keeps the stock out", async () => {
    const { orderId, productId, email, token } = await orderOf();
    expect(await stockOf(productId)).toBe(8);
    clock.advance(3 * 24 * 60 * 60 * 1000);
    const answer = await outcome(orderId, { kind: "returned", reason: "Refused at the door" });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe("Order marked returned to sender");
    expect(answer.body.data).toMatchObject({
      _id: orderId,
      status: "Cancelled",
      outcome: {
        kind: "returned",
        reason: "Refused at the door",
        at: "2026-12-04T09:00:00.000Z",
        receivedBackAt: null,
      },
    });
    expect(await stockOf(productId)).toBe(8);
    expect(await mailKinds(email)).toEqual(["order-placed", "order-shipped"]);
    const storeMail = await server.database.db("outbox").where({ kind: "order-returned-to-sender" });
    expect(storeMail).toHaveLength(1);
    expect(storeMail[0].subject).toContain("Refused at the door");

    // The customer reads the same outcome on their order.
    const read = await client.api("GET", `/orders/${orderId}`, { token });
    expect(read.body.data.outcome).toEqual(answer.body.data.outcome);
  });

  it("puts the stock back when the parcel is received back, once: a second time is a 409", async () => {
    const { orderId, productId } = await orderOf();
    expect((await outcome(orderId, { kind: "returned", reason: "Wrong address" })).status).toBe(200);
    clock.advance(60_000);
    const answers = await Promise.all([receivedBack(orderId), receivedBack(orderId), receivedBack(orderId)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const first = answers.find((answer) => answer.status === 200)!;
    expect(first.body.data.outcome).toMatchObject({
      reason: "Wrong address",
      receivedBackAt: "2026-12-01T09:01:00.000Z",
    });
    expect(await stockOf(productId)).toBe(10);
    const again = await receivedBack(orderId);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      message: "This parcel was marked received back already",
      code: "RECEIVED_ALREADY",
    });
    expect(await stockOf(productId)).toBe(10);
  });

  it("refuses an order that is not Shipped (409), a missing reason (400) and a non-returned order's received-back (409)", async () => {
    for (const status of ["Pending", "Delivered", "Cancelled"]) {
      const { orderId, productId } = await orderOf({ status });
      const stock = await stockOf(productId);
      const refused = await outcome(orderId, { kind: "returned", reason: "Other" });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe("Only a shipped order can be marked returned to sender");
      const back = await receivedBack(orderId);
      expect(back.status).toBe(409);
      expect(back.body.message).toBe("Only an order returned to sender can be marked received back");
      expect(await stockOf(productId)).toBe(stock);
    }
    const { orderId } = await orderOf();
    const bad = await outcome(orderId, { kind: "lost", reason: "Because" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: "kind", message: "Outcome must be returned" },
      {
        field: "reason",
        message: "Reason must be one of: Refused at the door, Customer not reachable, Wrong address, Other",
      },
    ]);
    expect((await server.database.db("orders").where({ id: orderId }).first()).status).toBe("Shipped");
  });

  it("leaves Cancelled as any order does: a parcel never received back claims no stock again", async () => {
    const { orderId, productId } = await orderOf();
    expect((await outcome(orderId, { kind: "returned", reason: "Customer not reachable" })).status).toBe(200);
    const shippedAgain = await client.api("PATCH", `/orders/${orderId}/status`, {
      body: { status: "Shipped" },
      token: adminToken,
    });
    expect(shippedAgain.status).toBe(200);
    expect(shippedAgain.body.data.outcome).toBeNull();
    expect(await stockOf(productId)).toBe(8);
  });
});

describe("returned to sender, through the admin's pages", () => {
  it("asks for the reason, then for the parcel's arrival, each a plain form", async () => {
    const { orderId, productId } = await orderOf();
    const details = await (await adminPages.get(`/admin/orders/${orderId}`)).text();
    expect(details).toContain(`href="/admin/orders/${orderId}/outcome"`);
    expect(details).toContain("Returned to sender…");

    const form = await (await adminPages.get(`/admin/orders/${orderId}/outcome`)).text();
    expect(form).toContain("Why did the parcel come back?");
    const unanswered = await adminPages.postForm(`/admin/orders/${orderId}/outcome`, { intent: "returned" });
    expect(unanswered.status).toBe(400);
    expect(await unanswered.text()).toContain("Choose why the parcel came back");
    expect((await server.database.db("orders").where({ id: orderId }).first()).status).toBe("Shipped");

    const marked = await adminPages.postForm(`/admin/orders/${orderId}/outcome`, {
      intent: "returned",
      reason: "Refused at the door",
    });
    expect(marked.status).toBe(303);
    expect(marked.headers.get("location")).toBe(`/admin/orders/${orderId}`);
    const after = await (await adminPages.get(`/admin/orders/${orderId}`)).text();
    expect(after).toContain("Returned to sender (Refused at the door)");
    expect(after).toContain("Mark received back");
    expect(await stockOf(productId)).toBe(8);

    const confirm = await (await adminPages.get(`/admin/orders/${orderId}/outcome`)).text();
    expect(confirm).toContain("Yes, received back");
    const back = await adminPages.postForm(`/admin/orders/${orderId}/outcome`, { intent: "received-back" });
    expect(back.status).toBe(303);
    expect(await stockOf(productId)).toBe(10);
    const twice = await adminPages.postForm(`/admin/orders/${orderId}/outcome`, { intent: "received-back" });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("This parcel was marked received back already");
    expect(await stockOf(productId)).toBe(10);
  });
});
