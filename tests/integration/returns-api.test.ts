/**
 * Returns through the JSON API (docs/product.md and docs/api.md, "Returns"): asked for by the
 * owner of a delivered order within 7 × 24 h of delivery (the clock is moved, never waited for),
 * approved or rejected, received with the refund and the stock back exactly once; every refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { migrationSource } from "../../migrations/index";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let otherToken: string;
const clock = new TestClock();
const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;

beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.now });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@returns.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Other", email: "other@returns.test", password: "otherpass1" });
  adminToken = await apiToken(client, "admin@returns.test", "adminpass1");
  otherToken = await apiToken(client, "other@returns.test", "otherpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  clock.set("2026-12-01T09:00:00Z");
  const db = server.database.db;
  await db("orders").del();
  await db("carts").del();
  await db("products").del();
});

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const missingId = "00000000-0000-4000-8000-000000000000";

let shopperCount = 0;
async function newShopper(): Promise<{ id: string; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@returns.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Shopper ${shopperCount}`, email, passwordHash: await hashPassword("shopperpass1", 4) })
    .returning("id");
  return { id: row.id, token: await apiToken(client, email, "shopperpass1") };
}

const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
const setStatus = (orderId: string, status: string) =>
  client.api("PATCH", `/orders/${orderId}/status`, { body: { status }, token: adminToken });
const requestReturn = (token: string, orderId: string, body: unknown) =>
  client.api("POST", `/orders/${orderId}/returns`, { body, token });
const patchReturn = (returnId: string, body: unknown, token = adminToken) =>
  client.api("PATCH", `/returns/${returnId}`, { body, token });
const returnCount = async () => Number((await server.database.db("order_returns").count("* as count").first())!.count);

/**
 * A shopper's order of the given watches (name, price, quantity; 10 in stock each), placed
 * through the API (with a discount code when given) and, unless said, delivered now.
 */
async function orderOf(
  watches: { name: string; price: number; quantity: number }[],
  options: { discountCode?: string; deliver?: boolean } = {},
) {
  const shopper = await newShopper();
  const productIds = await insertProducts(
    server,
    watches.map((watch) => ({ name: watch.name, price: watch.price, stock: 10 })),
  );
  for (const [index, watch] of watches.entries()) {
    const added = await client.api("POST", "/cart", {
      body: { productId: productIds[index], quantity: watch.quantity },
      token: shopper.token,
    });
    expect(added.status).toBe(200);
  }
  const placed = await client.api("POST", "/orders", {
    body: { address, ...(options.discountCode ? { discountCode: options.discountCode } : {}) },
    token: shopper.token,
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  if (options.deliver !== false) expect((await setStatus(orderId, "Delivered")).status).toBe(200);
  return { shopper, orderId, productIds: productIds as string[] };
}

describe("a return from request to refund", () => {
  it("is requested by the owner, approved, and received with the refund, putting the stock back once", async () => {
    const { shopper, orderId, productIds } = await orderOf([
      { name: "Seiko Presage", price: 45_000, quantity: 2 },
      { name: "Casio Edifice", price: 18_500.5, quantity: 1 },
    ]);
    const [seiko, casio] = productIds;
    expect(await stockOf(seiko!)).toBe(8);
    const delivered = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    expect(delivered.deliveredAt).toBe("2026-12-01T09:00:00.000Z");

    clock.advance(2 * DAY);
    const requested = await requestReturn(shopper.token, orderId, {
      items: [{ productId: seiko, quantity: 1 }],
      reason: "Damaged or defective",
      note: "  The crown came off.  ",
    });
    expect(requested.status).toBe(201);
    expect(requested.body).toEqual({
      success: true,
      message: "Return requested",
      data: {
        _id: expect.any(String),
        order: orderId,
        items: [{ product: { _id: seiko, name: "Seiko Presage" }, quantity: 1, price: 45_000 }],
        reason: "Damaged or defective",
        note: "The crown came off.",
        status: "Requested",
        rejectionReason: null,
        refundAmount: 45_000,
        refund: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const returnId = requested.body.data._id;
    const order = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    expect(order.returns).toEqual([requested.body.data]);
    // Nothing comes back to the shelf before the watch does.
    expect(await stockOf(seiko!)).toBe(8);

    const listed = await client.api("GET", "/returns", { token: adminToken });
    expect(listed.body.data.map((item: { _id: string }) => item._id)).toEqual([returnId]);
    expect(listed.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });

    const approved = await patchReturn(returnId, { status: "Approved" });
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe("Approved");
    expect(await stockOf(seiko!)).toBe(8);

    const received = await patchReturn(returnId, {
      status: "Received",
      refund: { method: "JazzCash", reference: "JC-20261203-7781" },
    });
    expect(received.status).toBe(200);
    expect(received.body.data).toMatchObject({
      status: "Received",
      refundAmount: 45_000,
      refund: { method: "JazzCash", reference: "JC-20261203-7781" },
    });
    expect(await stockOf(seiko!)).toBe(9);
    expect(await stockOf(casio!)).toBe(9);

    // Received again, or many times at once: the stock came back once.
    const again = await Promise.all(
      Array.from({ length: 5 }, () => patchReturn(returnId, { status: "Received", refund: { method: "Cash" } })),
    );
    for (const response of again) {
      expect(response.status).toBe(409);
      expect(response.body.message).toBe("This return is received: its status can no longer change");
    }
    expect(await stockOf(seiko!)).toBe(9);
    const after = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    expect(after.returns[0]).toMatchObject({ status: "Received", refund: { method: "JazzCash" } });
    expect(after.status).toBe("Delivered");
  });

  it("puts the stock back exactly once when Received is sent many times at once", async () => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Orient Bambino", price: 30_000, quantity: 3 }]);
    const { _id } = (
      await requestReturn(shopper.token, orderId, {
        items: [{ productId: productIds[0], quantity: 2 }],
        reason: "Changed my mind",
      })
    ).body.data;
    expect((await patchReturn(_id, { status: "Approved" })).status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => patchReturn(_id, { status: "Received", refund: { method: "Cash" } })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await stockOf(productIds[0]!)).toBe(9);
  });

  it("refunds what was paid: the items' share of the discount is their share of the subtotal, half up", async () => {
    const { shopper, orderId, productIds } = await orderOf(
      [
        { name: "Tissot PRX", price: 1000, quantity: 2 },
        { name: "Citizen Tsuyosa", price: 999.99, quantity: 1 },
      ],
      { discountCode: "FIRST10" },
    );
    const order = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    // 10% of 2999.99 is 299.999: 300.00 off.
    expect(order).toMatchObject({ subtotal: 2999.99, discount: { code: "FIRST10", amount: 300 }, totalPrice: 2699.99 });
    const [tissot, citizen] = productIds;

    // 1000 of 2999.99 carries 100.0003 of the discount: 100.00.
    const first = await requestReturn(shopper.token, orderId, {
      items: [{ productId: tissot, quantity: 1 }],
      reason: "Not as described",
    });
    expect(first.body.data.refundAmount).toBe(900);
    expect((await patchReturn(first.body.data._id, { status: "Approved" })).status).toBe(200);
    expect(
      (
        await patchReturn(first.body.data._id, {
          status: "Received",
          refund: { method: "Bank transfer", reference: "IBFT-1" },
        })
      ).status,
    ).toBe(200);

    // 999.99 carries 99.9997: 100.00, so 899.99 comes back.
    const second = await requestReturn(shopper.token, orderId, {
      items: [{ productId: citizen, quantity: 1 }],
      reason: "Wrong item",
    });
    expect(second.body.data.refundAmount).toBe(899.99);
  });
});

describe("refusals", () => {
  it("refuses an order that is not delivered with 409 'Only delivered orders can be returned'", async () => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Pending Watch", price: 5000, quantity: 1 }], {
      deliver: false,
    });
    for (const status of ["Pending", "Shipped", "Cancelled"]) {
      if (status !== "Pending") expect((await setStatus(orderId, status)).status).toBe(200);
      const response = await requestReturn(shopper.token, orderId, {
        items: [{ productId: productIds[0], quantity: 1 }],
        reason: "Changed my mind",
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ success: false, message: "Only delivered orders can be returned" });
    }
    expect(await returnCount()).toBe(0);
  });

  it("accepts a return until 7 × 24 h after delivery, and refuses it at that instant with 409", async () => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Window Watch", price: 5000, quantity: 2 }]);
    const body = { items: [{ productId: productIds[0], quantity: 1 }], reason: "Changed my mind" };
    clock.set(new Date(Date.parse("2026-12-01T09:00:00Z") + WEEK));
    const late = await requestReturn(shopper.token, orderId, body);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ success: false, message: "Returns are accepted within 7 days of delivery" });
    expect(await returnCount()).toBe(0);

    clock.set(new Date(Date.parse("2026-12-01T09:00:00Z") + WEEK - 1));
    expect((await requestReturn(shopper.token, orderId, body)).status).toBe(201);
  });

  it("measures the window from the last time the order became Delivered", async () => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Redelivered", price: 5000, quantity: 1 }]);
    clock.advance(6 * DAY);
    expect((await setStatus(orderId, "Shipped")).status).toBe(200);
    const shipped = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    expect(shipped.deliveredAt).toBeNull();
    clock.advance(DAY);
    expect((await setStatus(orderId, "Delivered")).status).toBe(200);
    clock.advance(6 * DAY);
    const response = await requestReturn(shopper.token, orderId, {
      items: [{ productId: productIds[0], quantity: 1 }],
      reason: "Other",
    });
    expect(response.status).toBe(201);
  });

  it("refuses a second return while one is open (Requested or Approved) with 409, and takes one after a rejection", async () => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Busy Watch", price: 5000, quantity: 3 }]);
    const body = { items: [{ productId: productIds[0], quantity: 1 }], reason: "Changed my mind" };
    const first = await requestReturn(shopper.token, orderId, body);
    expect(first.status).toBe(201);
    const open = { success: false, message: "This order already has a return in progress" };
    expect((await requestReturn(shopper.token, orderId, body)).body).toEqual(open);
    expect((await patchReturn(first.body.data._id, { status: "Approved" })).status).toBe(200);
    const whileApproved = await requestReturn(shopper.token, orderId, body);
    expect(whileApproved.status).toBe(409);
    expect(whileApproved.body).toEqual(open);
    expect(await returnCount()).toBe(1);

    // Two at once: one opens, the other is refused.
    const other = await orderOf([{ name: "Raced Watch", price: 5000, quantity: 3 }]);
    const raced = await Promise.all(
      Array.from({ length: 4 }, () =>
        requestReturn(other.shopper.token, other.orderId, {
          items: [{ productId: other.productIds[0], quantity: 1 }],
          reason: "Other",
        }),
      ),
    );
    expect(raced.map((response) => response.status).sort()).toEqual([201, 409, 409, 409]);

    // A rejected return holds nothing: the whole quantity can be asked for again.
    const rejected = await patchReturn(raced.find((response) => response.status === 201)!.body.data._id, {
      status: "Rejected",
      rejectionReason: "The watch shows wear.",
    });
    expect(rejected.status).toBe(200);
    const afterRejection = await requestReturn(other.shopper.token, other.orderId, {
      items: [{ productId: other.productIds[0], quantity: 3 }],
      reason: "Other",
    });
    expect(afterRejection.status).toBe(201);
  });

  it("refuses a quantity above what was ordered, less what earlier returns hold, with 400 on that item", async () => {
    const { shopper, orderId, productIds } = await orderOf([
      { name: "Counted Watch", price: 5000, quantity: 2 },
      { name: "Second Watch", price: 3000, quantity: 1 },
    ]);
    const [counted, second] = productIds;
    const tooMany = await requestReturn(shopper.token, orderId, {
      items: [
        { productId: second, quantity: 1 },
        { productId: counted, quantity: 3 },
      ],
      reason: "Wrong item",
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      success: false,
      message: "You can return at most 2 of Counted Watch",
      errors: [{ field: "items[1].quantity", message: "You can return at most 2 of Counted Watch" }],
    });

    const first = await requestReturn(shopper.token, orderId, {
      items: [{ productId: counted, quantity: 1 }],
      reason: "Wrong item",
    });
    expect((await patchReturn(first.body.data._id, { status: "Approved" })).status).toBe(200);
    expect((await patchReturn(first.body.data._id, { status: "Received", refund: { method: "Cash" } })).status).toBe(
      200,
    );
    const left = await requestReturn(shopper.token, orderId, {
      items: [{ productId: counted, quantity: 2 }],
      reason: "Wrong item",
    });
    expect(left.status).toBe(400);
    expect(left.body.errors).toEqual([
      { field: "items[0].quantity", message: "You can return at most 1 of Counted Watch" },
    ]);
    const rest = await requestReturn(shopper.token, orderId, {
      items: [{ productId: counted, quantity: 1 }],
      reason: "Wrong item",
    });
    expect(rest.status).toBe(201);
    expect((await patchReturn(rest.body.data._id, { status: "Approved" })).status).toBe(200);
    expect((await patchReturn(rest.body.data._id, { status: "Received", refund: { method: "Cash" } })).status).toBe(
      200,
    );
    const none = await requestReturn(shopper.token, orderId, {
      items: [{ productId: counted, quantity: 1 }],
      reason: "Wrong item",
    });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([
      { field: "items[0].quantity", message: "Counted Watch has been returned already" },
    ]);
  });

  it.each([
    [{ items: [], reason: "Other" }, "items", "Choose at least one watch to return"],
    [{ reason: "Other" }, "items", "Choose at least one watch to return"],
    [{ items: "all", reason: "Other" }, "items", "Items must be a list of watches and quantities"],
    [
      { items: [{ productId: "PRODUCT", quantity: 0 }], reason: "Other" },
      "items[0].quantity",
      "Quantity must be at least 1",
    ],
    [
      { items: [{ productId: "PRODUCT", quantity: 1.5 }], reason: "Other" },
      "items[0].quantity",
      "Quantity must be a whole number",
    ],
    [{ items: [{ productId: "PRODUCT", quantity: 1 }] }, "reason", "Choose a reason"],
    [
      { items: [{ productId: "PRODUCT", quantity: 1 }], reason: "Bored" },
      "reason",
      "Reason must be one of Changed my mind, Damaged or defective, Not as described, Wrong item, Other",
    ],
    [
      { items: [{ productId: "PRODUCT", quantity: 1 }], reason: "Other", note: "x".repeat(501) },
      "note",
      "Note must be at most 500 characters",
    ],
    [
      { items: [{ productId: missingId, quantity: 1 }], reason: "Other" },
      "items[0].productId",
      "This watch is not part of the order",
    ],
    [
      {
        items: [
          { productId: "PRODUCT", quantity: 1 },
          { productId: "PRODUCT", quantity: 1 },
        ],
        reason: "Other",
      },
      "items[1].productId",
      "Refused Watch is listed twice",
    ],
  ])("refuses %o with 400 naming the field, changing nothing", async (body, field, message) => {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Refused Watch", price: 5000, quantity: 2 }]);
    const withId = JSON.parse(JSON.stringify(body).replaceAll("PRODUCT", productIds[0]!));
    const response = await requestReturn(shopper.token, orderId, withId);
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ field, message });
    expect(await returnCount()).toBe(0);
  });

  it("answers 404 to anyone but the owner (another customer, an admin) and for unknown ids; 401 to a guest", async () => {
    const { orderId, productIds } = await orderOf([{ name: "Private Watch", price: 5000, quantity: 1 }]);
    const body = { items: [{ productId: productIds[0], quantity: 1 }], reason: "Other" };
    for (const token of [otherToken, adminToken]) {
      const response = await requestReturn(token, orderId, body);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Order not found" });
    }
    for (const id of [missingId, "not-an-id"]) expect((await requestReturn(otherToken, id, body)).status).toBe(404);
    expect((await client.api("POST", `/orders/${orderId}/returns`, { body })).status).toBe(401);
    expect(await returnCount()).toBe(0);
  });
});

describe("moving a return on", () => {
  async function requested() {
    const { shopper, orderId, productIds } = await orderOf([{ name: "Moving Watch", price: 5000, quantity: 2 }]);
    const response = await requestReturn(shopper.token, orderId, {
      items: [{ productId: productIds[0], quantity: 1 }],
      reason: "Changed my mind",
    });
    return { shopper, orderId, productId: productIds[0]!, returnId: response.body.data._id as string };
  }

  it("allows only Requested → Approved | Rejected and Approved → Received; any other move is a 409", async () => {
    const { returnId } = await requested();
    const early = await patchReturn(returnId, { status: "Received", refund: { method: "Cash" } });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ success: false, message: "A requested return can only be approved or rejected" });
    expect((await patchReturn(returnId, { status: "Approved" })).status).toBe(200);
    for (const body of [{ status: "Approved" }, { status: "Rejected", rejectionReason: "Too late" }]) {
      const response = await patchReturn(returnId, body);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe("An approved return can only be marked as received");
    }

    const second = await requested();
    expect(
      (await patchReturn(second.returnId, { status: "Rejected", rejectionReason: "Worn on the strap." })).status,
    ).toBe(200);
    for (const body of [{ status: "Approved" }, { status: "Received", refund: { method: "Cash" } }]) {
      const response = await patchReturn(second.returnId, body);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe("This return is rejected: its status can no longer change");
    }
    expect(await stockOf(second.productId)).toBe(8);
  });

  it("shows the customer why a return was rejected", async () => {
    const { shopper, orderId, returnId } = await requested();
    const rejected = await patchReturn(returnId, { status: "Rejected", rejectionReason: "  The seal was broken. " });
    expect(rejected.body.data).toMatchObject({
      status: "Rejected",
      rejectionReason: "The seal was broken.",
      refund: null,
    });
    const order = (await client.api("GET", `/orders/${orderId}`, { token: shopper.token })).body.data;
    expect(order.returns[0]).toMatchObject({ status: "Rejected", rejectionReason: "The seal was broken." });
  });

  it.each([
    [{}, "status", "Status is required"],
    [{ status: "Requested" }, "status", "Status must be one of Approved, Rejected, Received"],
    [{ status: "Rejected" }, "rejectionReason", "Say why the return is rejected: the customer reads it"],
    [
      { status: "Approved", rejectionReason: "No" },
      "rejectionReason",
      "A reason is given only with the status Rejected",
    ],
    [{ status: "Received" }, "refund", "Give the refund: its method and reference"],
    [{ status: "Approved", refund: { method: "Cash" } }, "refund", "A refund is given only with the status Received"],
    [
      { status: "Received", refund: { method: "Cheque" } },
      "refund.method",
      "Refund method must be one of Cash, Bank transfer, JazzCash, Easypaisa",
    ],
    [{ status: "Received", refund: { method: "Easypaisa" } }, "refund.reference", "Enter the transaction's reference"],
    [
      { status: "Received", refund: { method: "Cash", reference: "r".repeat(101) } },
      "refund.reference",
      "Reference must be at most 100 characters",
    ],
  ])("refuses %o with 400 naming the field", async (body, field, message) => {
    const { returnId } = await requested();
    const response = await patchReturn(returnId, body);
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ field, message });
  });

  it("is for admins (401, 403), and answers 404 for an unknown or malformed id", async () => {
    const { shopper, returnId } = await requested();
    expect((await client.api("PATCH", `/returns/${returnId}`, { body: { status: "Approved" } })).status).toBe(401);
    expect((await patchReturn(returnId, { status: "Approved" }, shopper.token)).status).toBe(403);
    expect((await client.api("GET", "/returns", { token: shopper.token })).status).toBe(403);
    for (const id of [missingId, "nope"]) {
      const response = await patchReturn(id, { status: "Approved" });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Return not found" });
    }
  });

  it("keeps a delivered order with a return Delivered until the return is rejected", async () => {
    const { orderId, returnId } = await requested();
    for (const status of ["Shipped", "Cancelled", "Pending"]) {
      const response = await setStatus(orderId, status);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe("This order has a return, so it stays Delivered");
    }
    expect((await patchReturn(returnId, { status: "Rejected", rejectionReason: "No" })).status).toBe(200);
    expect((await setStatus(orderId, "Shipped")).status).toBe(200);
  });
});

describe("GET /returns", () => {
  it("lists newest first, 20 a page by default (at most 100), filtered by status, with pagination", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { shopper, orderId, productIds } = await orderOf([{ name: `Listed ${index}`, price: 1000, quantity: 1 }]);
      clock.advance(60_000);
      const response = await requestReturn(shopper.token, orderId, {
        items: [{ productId: productIds[0], quantity: 1 }],
        reason: "Other",
      });
      ids.push(response.body.data._id);
    }
    await server.database
      .db("order_returns")
      .where({ id: ids[0] })
      .update({ createdAt: new Date("2026-11-01T00:00:00Z") });
    await server.database
      .db("order_returns")
      .where({ id: ids[2] })
      .update({ createdAt: new Date("2026-11-03T00:00:00Z") });
    await server.database
      .db("order_returns")
      .where({ id: ids[1] })
      .update({ createdAt: new Date("2026-11-02T00:00:00Z") });
    expect((await patchReturn(ids[1]!, { status: "Approved" })).status).toBe(200);

    const all = await client.api("GET", "/returns", { token: adminToken });
    expect(all.body.data.map((item: { _id: string }) => item._id)).toEqual([ids[2], ids[1], ids[0]]);
    const page = await client.api("GET", "/returns?page=2&limit=2", { token: adminToken });
    expect(page.body.data.map((item: { _id: string }) => item._id)).toEqual([ids[0]]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const approved = await client.api("GET", "/returns?status=Approved", { token: adminToken });
    expect(approved.body.data.map((item: { _id: string }) => item._id)).toEqual([ids[1]]);
    expect(approved.body.pagination.total).toBe(1);
    const empties = await client.api("GET", "/returns?page=&limit=&status=", { token: adminToken });
    expect(empties.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });

    for (const [query, field, message] of [
      ["limit=101", "limit", "Limit must be between 1 and 100"],
      ["status=Lost", "status", "Status must be one of Requested, Approved, Rejected, Received"],
      ["page=0", "page", "Page must be at least 1"],
    ]) {
      const response = await client.api("GET", `/returns?${query}`, { token: adminToken });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field, message }]);
    }
  });
});

describe("deliveredAt", () => {
  it("is filled in by the migration for orders already Delivered, from their last update", async () => {
    const db = server.database.db;
    const shopper = await newShopper();
    const insertOrder = async (status: string) =>
      (
        await db("orders")
          .insert({
            userId: shopper.id,
            customerName: "Before",
            customerEmail: "before@returns.test",
            ...address,
            totalPrice: 100,
            status,
            paymentMethod: "Cash on Delivery",
            updatedAt: new Date("2026-10-05T12:00:00Z"),
          })
          .returning("id")
      )[0].id as string;
    // The schema as it was before deliveredAt, with orders in it; then the migrations run.
    await db.migrate.down({ name: "20261123000018_returns" });
    await db.migrate.down({ name: "20261123000017_order_delivered_at" });
    const delivered = await insertOrder("Delivered");
    const shipped = await insertOrder("Shipped");
    await db.migrate.latest();
    const rows = await db("orders").whereIn("id", [delivered, shipped]).select("id", "deliveredAt");
    const byId = Object.fromEntries(
      rows.map((row: { id: string; deliveredAt: Date | null }) => [row.id, row.deliveredAt]),
    );
    expect(byId[delivered]).toEqual(new Date("2026-10-05T12:00:00Z"));
    expect(byId[shipped]).toBeNull();
    expect(await migrationSource.getMigrations([])).toContain("20261123000018_returns");
  });
});
