/**
 * Discount codes through the JSON API (docs/product.md and docs/api.md, "Discount codes"): FIRST10
 * in every store, the rules at checkout (refusals place nothing and keep the cart), rounding and
 * the fixed cap, uses given back by a cancellation, and the rules under concurrent checkouts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;
const clock = new TestClock();

beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.now });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@discounts.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Customer", email: "customer@discounts.test", password: "custpass1" });
  adminToken = await apiToken(client, "admin@discounts.test", "adminpass1");
  customerToken = await apiToken(client, "customer@discounts.test", "custpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  clock.reset();
  const db = server.database.db;
  await db("orders").del();
  await db("carts").del();
  await db("products").del();
  await db("discount_codes").whereNot({ code: "FIRST10" }).del();
  await db("discount_codes").where({ code: "FIRST10" }).update({
    type: "percent",
    value: 10,
    firstOrderOnly: true,
    active: true,
    startsAt: null,
    endsAt: null,
    maxUses: null,
  });
});

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const NOT_VALID = "This discount code is not valid";
const FIRST_ONLY = "This code is only for your first order";
const missingId = "00000000-0000-4000-8000-000000000000";

let shopperCount = 0;
/** A fresh customer with a token. */
async function newShopper(): Promise<{ id: string; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@discounts.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Shopper ${shopperCount}`, email, passwordHash: await hashPassword("shopperpass1", 4) })
    .returning("id");
  return { id: row.id, token: await apiToken(client, email, "shopperpass1") };
}

async function addToCart(token: string, productId: string, quantity: number) {
  const response = await client.api("POST", "/cart", { body: { productId, quantity }, token });
  expect(response.status).toBe(200);
}

const placeOrder = (token: string, discountCode?: unknown) =>
  client.api("POST", "/orders", { body: discountCode === undefined ? { address } : { address, discountCode }, token });
const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
const orderCount = async () => Number((await server.database.db("orders").count("* as count").first())!.count);
const cartLines = async (token: string) =>
  (await client.api("GET", "/cart", { token })).body.data.cart.items.map(
    (line: { product: { _id: string }; quantity: number }) => [line.product._id, line.quantity],
  );
const listCodes = async () => (await client.api("GET", "/discounts", { token: adminToken })).body.data;
const codeNamed = async (code: string) => (await listCodes()).find((item: { code: string }) => item.code === code);
const createCode = (body: Record<string, unknown>) =>
  client.api("POST", "/discounts", { body: { type: "percent", value: 10, ...body }, token: adminToken });
const setStatus = (orderId: string, status: string) =>
  client.api("PATCH", `/orders/${orderId}/status`, { body: { status }, token: adminToken });

/** A shopper whose cart holds `quantity` of a new watch at `price`. */
async function shopperWithCart(price: number, quantity = 1, stock = 10) {
  const shopper = await newShopper();
  const [productId] = await insertProducts(server, [{ name: `Watch ${shopperCount}`, price, stock }]);
  await addToCart(shopper.token, productId!, quantity);
  return { ...shopper, productId: productId! };
}

/** A refusal placed nothing: no order, the stock and the cart as they were. */
async function expectNothingPlaced(shopper: { token: string; productId: string }, stock: number, quantity: number) {
  expect(await orderCount()).toBe(0);
  expect(await stockOf(shopper.productId)).toBe(stock);
  expect(await cartLines(shopper.token)).toEqual([[shopper.productId, quantity]]);
}

describe("FIRST10", () => {
  it("exists in every store: 10 percent, first order only, active, no limits, unused", async () => {
    expect(await codeNamed("FIRST10")).toEqual({
      _id: expect.any(String),
      code: "FIRST10",
      type: "percent",
      value: 10,
      firstOrderOnly: true,
      active: true,
      startsAt: null,
      endsAt: null,
      maxUses: null,
      usedCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it("is taken once, in any case with spaces around it, and refused on the second order with the cart kept", async () => {
    const shopper = await shopperWithCart(12_500, 1, 5);
    const first = await placeOrder(shopper.token, "  first10 ");
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      subtotal: 12_500,
      discount: { code: "FIRST10", amount: 1250 },
      totalPrice: 11_250,
    });
    expect((await codeNamed("FIRST10")).usedCount).toBe(1);
    // Every list uses the total the customer pays.
    const mine = await client.api("GET", "/orders/me", { token: shopper.token });
    expect(mine.body.meta).toEqual({ count: 1, totalAmount: 11_250 });
    expect(mine.body.data[0]).toMatchObject({ subtotal: 12_500, discount: { code: "FIRST10", amount: 1250 } });
    const all = await client.api("GET", "/orders", { token: adminToken });
    expect(all.body.meta.totalAmount).toBe(11_250);

    await addToCart(shopper.token, shopper.productId, 2);
    const second = await placeOrder(shopper.token, "FIRST10");
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      success: false,
      message: FIRST_ONLY,
      errors: [{ field: "discountCode", message: FIRST_ONLY }],
    });
    expect(await orderCount()).toBe(1);
    expect(await stockOf(shopper.productId)).toBe(4);
    expect(await cartLines(shopper.token)).toEqual([[shopper.productId, 2]]);
    // Without the code the same cart is ordered at full price.
    const plain = await placeOrder(shopper.token);
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ subtotal: 25_000, discount: null, totalPrice: 25_000 });
  });

  it("comes back when the first order is cancelled (its use is given back), and a restore is refused once it was used again", async () => {
    const shopper = await shopperWithCart(1000, 1, 5);
    const first = (await placeOrder(shopper.token, "FIRST10")).body.data;
    expect((await setStatus(first._id, "Cancelled")).status).toBe(200);
    expect((await codeNamed("FIRST10")).usedCount).toBe(0);

    // Only cancelled orders: still a first order.
    await addToCart(shopper.token, shopper.productId, 1);
    const again = await placeOrder(shopper.token, "first10");
    expect(again.status).toBe(201);
    expect(again.body.data.discount).toEqual({ code: "FIRST10", amount: 100 });
    expect((await codeNamed("FIRST10")).usedCount).toBe(1);

    const restore = await setStatus(first._id, "Pending");
    expect(restore.status).toBe(409);
    expect(restore.body.message).toBe(
      "Cannot restore this order: the customer has used FIRST10 on another order since",
    );
    expect((await server.database.db("orders").where({ id: first._id }).first()).status).toBe("Cancelled");

    // Cancel the second, and the first can come back with its discount and its use.
    expect((await setStatus(again.body.data._id, "Cancelled")).status).toBe(200);
    expect((await setStatus(first._id, "Pending")).status).toBe(200);
    expect((await codeNamed("FIRST10")).usedCount).toBe(1);
  });

  it("can be deactivated and edited by an admin: a deactivated code is refused", async () => {
    const { _id } = await codeNamed("FIRST10");
    const off = await client.api("PUT", `/discounts/${_id}`, {
      body: { code: "FIRST10", type: "percent", value: 10, firstOrderOnly: true, active: false },
      token: adminToken,
    });
    expect(off.status).toBe(200);
    expect(off.body.data.active).toBe(false);
    const shopper = await shopperWithCart(1000, 1, 5);
    const refused = await placeOrder(shopper.token, "FIRST10");
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: "discountCode", message: NOT_VALID }]);
    await expectNothingPlaced(shopper, 5, 1);

    const on = await client.api("PUT", `/discounts/${_id}`, {
      body: { code: "FIRST10", type: "percent", value: 15, firstOrderOnly: true, active: true },
      token: adminToken,
    });
    expect(on.body.data).toMatchObject({ value: 15, active: true });
    expect((await placeOrder(shopper.token, "FIRST10")).body.data.discount).toEqual({ code: "FIRST10", amount: 150 });
  });
});

describe("refused codes place nothing and keep the cart", () => {
  it.each([
    ["an unknown code", "NOPE10"],
    ["a code too short to be one", "ab"],
    ["a code with other characters", "FIRST-10"],
    ["a code far too long", "F".repeat(200)],
    ["a number", 10],
    ["an object", { $ne: "" }],
    ["a list", ["FIRST10"]],
  ])("refuses %s with 400 'This discount code is not valid'", async (_name, code) => {
    const shopper = await shopperWithCart(2000, 2, 5);
    const response = await placeOrder(shopper.token, code);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      message: NOT_VALID,
      errors: [{ field: "discountCode", message: NOT_VALID }],
    });
    await expectNothingPlaced(shopper, 5, 2);
  });

  it("treats an empty or null code as none", async () => {
    for (const code of ["", "   ", null]) {
      const shopper = await shopperWithCart(2000, 1, 5);
      const response = await placeOrder(shopper.token, code);
      expect(response.status).toBe(201);
      expect(response.body.data.discount).toBeNull();
    }
  });

  it("refuses an inactive code, one not yet started and one expired, by the store's clock", async () => {
    clock.set("2026-12-01T10:00:00Z");
    expect((await createCode({ code: "SLEEPY", active: false })).status).toBe(201);
    expect((await createCode({ code: "LATER", startsAt: "2026-12-02T10:00:00+05:00" })).status).toBe(201);
    expect((await createCode({ code: "OVER", endsAt: "2026-12-01T10:00:00Z" })).status).toBe(201);
    for (const code of ["SLEEPY", "LATER", "OVER"]) {
      const shopper = await shopperWithCart(2000, 1, 5);
      const response = await placeOrder(shopper.token, code);
      expect(response.status, code).toBe(400);
      expect(response.body.errors, code).toEqual([{ field: "discountCode", message: NOT_VALID }]);
      await expectNothingPlaced(shopper, 5, 1);
    }
    // LATER starts at 05:00 UTC on the 2nd: a millisecond before it is still too early, then it works.
    clock.set(new Date(Date.parse("2026-12-02T05:00:00Z") - 1));
    const early = await shopperWithCart(2000, 1, 5);
    expect((await placeOrder(early.token, "LATER")).status).toBe(400);
    clock.set("2026-12-02T05:00:00Z");
    expect((await placeOrder(early.token, "LATER")).status).toBe(201);
    // OVER ends at 10:00 on the 1st: a millisecond before, it still worked.
    clock.set(new Date(Date.parse("2026-12-01T10:00:00Z") - 1));
    const inTime = await shopperWithCart(2000, 1, 5);
    expect((await placeOrder(inTime.token, "OVER")).status).toBe(201);
  });

  it("refuses a code whose uses are all taken, and gives a use back when its order is cancelled", async () => {
    expect((await createCode({ code: "ONCE", maxUses: 1 })).status).toBe(201);
    const first = await shopperWithCart(1000, 1, 5);
    const placed = await placeOrder(first.token, "once");
    expect(placed.status).toBe(201);
    const second = await shopperWithCart(1000, 1, 5);
    const refused = await placeOrder(second.token, "ONCE");
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(NOT_VALID);
    expect(await cartLines(second.token)).toEqual([[second.productId, 1]]);

    expect((await setStatus(placed.body.data._id, "Cancelled")).status).toBe(200);
    expect((await codeNamed("ONCE")).usedCount).toBe(0);
    const taken = await placeOrder(second.token, "ONCE");
    expect(taken.status).toBe(201);
    // The cancelled order cannot come back with a use that is gone.
    const restore = await setStatus(placed.body.data._id, "Pending");
    expect(restore.status).toBe(409);
    expect(restore.body.message).toBe("Cannot restore this order: the discount code ONCE is used up");
    expect(await stockOf(first.productId)).toBe(5);
  });
});

describe("amounts", () => {
  it("rounds a percentage half up to the paisa", async () => {
    expect((await createCode({ code: "TEN", value: 10 })).status).toBe(201);
    expect((await createCode({ code: "HALF", value: 12.5 })).status).toBe(201);
    const cases: [number, string, number][] = [
      [1234.45, "TEN", 123.45], // 123.445: half up, not to even
      [1234.44, "TEN", 123.44], // 123.444
      [0.05, "TEN", 0.01], // 0.005
      [0.04, "TEN", 0], // 0.004
      [99.99, "HALF", 12.5], // 12.49875
      [3000.3, "TEN", 300.03],
    ];
    for (const [price, code, amount] of cases) {
      const shopper = await shopperWithCart(price, 1, 5);
      const response = await placeOrder(shopper.token, code);
      expect(response.status).toBe(201);
      expect(response.body.data, `${code} on ${price}`).toMatchObject({
        subtotal: price,
        discount: { code, amount },
        totalPrice: Math.round((price - amount) * 100) / 100,
      });
    }
  });

  it("takes a fixed amount off the goods, never more than the subtotal", async () => {
    expect((await createCode({ code: "FIVEHUNDRED", type: "fixed", value: 500 })).status).toBe(201);
    expect((await createCode({ code: "HUGE", type: "fixed", value: 5000 })).status).toBe(201);
    const some = await shopperWithCart(1500, 2, 5);
    expect((await placeOrder(some.token, "fivehundred")).body.data).toMatchObject({
      subtotal: 3000,
      discount: { code: "FIVEHUNDRED", amount: 500 },
      totalPrice: 2500,
    });
    const capped = await shopperWithCart(1500, 2, 5);
    expect((await placeOrder(capped.token, "HUGE")).body.data).toMatchObject({
      subtotal: 3000,
      discount: { code: "HUGE", amount: 3000 },
      totalPrice: 0,
    });
  });

  it("reads orders made before codes as subtotal = totalPrice and discount null", async () => {
    const shopper = await newShopper();
    const [row] = await server.database
      .db("orders")
      .insert({
        userId: shopper.id,
        customerName: "Old",
        customerEmail: "old@discounts.test",
        ...address,
        totalPrice: 777.7,
        status: "Delivered",
        paymentMethod: "Cash on Delivery",
      })
      .returning("id");
    const order = (await client.api("GET", `/orders/${row.id}`, { token: shopper.token })).body.data;
    expect(order).toMatchObject({ subtotal: 777.7, discount: null, totalPrice: 777.7, returns: [] });
  });
});

describe("under concurrent checkouts", () => {
  it("lets one customer's simultaneous checkouts use a first-order code once at most", async () => {
    const shopper = await shopperWithCart(1000, 1, 10);
    const responses = await Promise.all(Array.from({ length: 4 }, () => placeOrder(shopper.token, "FIRST10")));
    const placed = responses.filter((response) => response.status === 201);
    expect(placed).toHaveLength(1);
    for (const response of responses.filter((response) => response.status !== 201)) {
      expect(response.status).toBe(400);
      expect([FIRST_ONLY, "Your cart is empty"]).toContain(response.body.message);
    }
    expect((await codeNamed("FIRST10")).usedCount).toBe(1);
    expect(await stockOf(shopper.productId)).toBe(9);

    // And with a full cart again, while another checkout with the code runs for another shopper.
    await addToCart(shopper.token, shopper.productId, 1);
    const other = await shopperWithCart(1000, 1, 10);
    const [mine, theirs] = await Promise.all([
      placeOrder(shopper.token, "FIRST10"),
      placeOrder(other.token, "FIRST10"),
    ]);
    expect(mine.status).toBe(400);
    expect(mine.body.message).toBe(FIRST_ONLY);
    expect(theirs.status).toBe(201);
    expect((await codeNamed("FIRST10")).usedCount).toBe(2);
  });

  it("holds maxUses when many shoppers check out at once; the others keep their carts", async () => {
    expect((await createCode({ code: "FLASH3", type: "fixed", value: 100, maxUses: 3 })).status).toBe(201);
    // A watch of their own for each shopper: only the code's lock stands between their checkouts.
    const shoppers = await Promise.all(Array.from({ length: 8 }, () => shopperWithCart(2000, 1, 5)));

    const responses = await Promise.all(shoppers.map((shopper) => placeOrder(shopper.token, "flash3")));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    for (const response of responses.filter((response) => response.status === 400)) {
      expect(response.body.errors).toEqual([{ field: "discountCode", message: NOT_VALID }]);
    }
    for (const [index, shopper] of shoppers.entries()) {
      const placed = responses[index]!.status === 201;
      expect(await cartLines(shopper.token)).toEqual(placed ? [] : [[shopper.productId, 1]]);
      expect(await stockOf(shopper.productId)).toBe(placed ? 4 : 5);
    }
    expect((await codeNamed("FLASH3")).usedCount).toBe(3);
    const discounted = await server.database.db("orders").where({ discountCode: "FLASH3" });
    expect(discounted).toHaveLength(3);
  });
});

describe("the admin API", () => {
  it("is for admins: a guest 401, a customer 403", async () => {
    for (const [method, path] of [
      ["GET", "/discounts"],
      ["POST", "/discounts"],
      ["PUT", `/discounts/${missingId}`],
    ] as const) {
      expect((await client.api(method, path, { body: method === "GET" ? undefined : {} })).status).toBe(401);
      const customer = await client.api(method, path, {
        body: method === "GET" ? undefined : {},
        token: customerToken,
      });
      expect(customer.status).toBe(403);
    }
  });

  it("creates a code (201) in capitals, ignores usedCount, lists codes newest first, and refuses a duplicate in any case (409)", async () => {
    clock.set("2026-12-01T00:00:00Z");
    const created = await client.api("POST", "/discounts", {
      body: {
        code: "  eid25 ",
        type: "fixed",
        value: 250.5,
        firstOrderOnly: false,
        active: true,
        startsAt: "2026-12-10T00:00:00+05:00",
        endsAt: "2026-12-20T23:59:00+05:00",
        maxUses: 100,
        usedCount: 99,
      },
      token: adminToken,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      message: "Discount code created",
      data: {
        _id: expect.any(String),
        code: "EID25",
        type: "fixed",
        value: 250.5,
        firstOrderOnly: false,
        active: true,
        startsAt: "2026-12-09T19:00:00.000Z",
        endsAt: "2026-12-20T18:59:00.000Z",
        maxUses: 100,
        usedCount: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    // Without the optional fields: active, not first-order-only, no limits.
    const plain = await client.api("POST", "/discounts", {
      body: { code: "PLAIN5", type: "percent", value: 5 },
      token: adminToken,
    });
    expect(plain.body.data).toMatchObject({
      firstOrderOnly: false,
      active: true,
      startsAt: null,
      endsAt: null,
      maxUses: null,
    });

    const codes = (await listCodes()).map((code: { code: string }) => code.code);
    expect(codes.slice(0, 3)).toEqual(["PLAIN5", "EID25", "FIRST10"]);

    for (const code of ["EID25", "eid25", "First10"]) {
      const duplicate = await createCode({ code });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ success: false, message: "A discount code with this name already exists" });
    }
    const renamed = await client.api("PUT", `/discounts/${plain.body.data._id}`, {
      body: { code: "EID25", type: "percent", value: 5 },
      token: adminToken,
    });
    expect(renamed.status).toBe(409);
  });

  it("replaces a code's fields with PUT, and answers 404 for an unknown or malformed id", async () => {
    const { _id } = (await createCode({ code: "WINTER", value: 20, maxUses: 5 })).body.data;
    const updated = await client.api("PUT", `/discounts/${_id}`, {
      body: { code: "winter2", type: "fixed", value: 1000, firstOrderOnly: true, active: false, maxUses: null },
      token: adminToken,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      _id,
      code: "WINTER2",
      type: "fixed",
      value: 1000,
      firstOrderOnly: true,
      active: false,
      maxUses: null,
    });
    for (const id of [missingId, "not-an-id"]) {
      const response = await client.api("PUT", `/discounts/${id}`, {
        body: { code: "GHOST", type: "percent", value: 5 },
        token: adminToken,
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Discount code not found" });
    }
  });

  it.each([
    [{ code: "", type: "percent", value: 10 }, "code", "Code is required"],
    [{ code: "AB", type: "percent", value: 10 }, "code", "Code must be 3 to 20 letters and digits"],
    [{ code: "SUMMER-10", type: "percent", value: 10 }, "code", "Code must be 3 to 20 letters and digits"],
    [{ code: "X".repeat(21), type: "percent", value: 10 }, "code", "Code must be 3 to 20 letters and digits"],
    [{ code: "OK10", type: "half", value: 10 }, "type", "Type must be percent or fixed"],
    [{ code: "OK10", type: "percent", value: 95 }, "value", "A percentage must be between 1 and 90"],
    [{ code: "OK10", type: "percent", value: 0.5 }, "value", "A percentage must be between 1 and 90"],
    [{ code: "OK10", type: "fixed", value: 0 }, "value", "An amount must be more than 0"],
    [{ code: "OK10", type: "fixed", value: -5 }, "value", "An amount must be more than 0"],
    [{ code: "OK10", type: "fixed", value: 10.001 }, "value", "Value can have at most two decimals"],
    // More than 0, yet 0.00 to the database's numeric(12, 2): was taken, then a 500.
    [{ code: "OK10", type: "fixed", value: "5e-324" }, "value", "Value can have at most two decimals"],
    [{ code: "OK10", type: "fixed", value: "ten" }, "value", "Value must be a number"],
    [{ code: "OK10", type: "percent", value: 10, maxUses: 0 }, "maxUses", "Maximum uses must be at least 1"],
    [{ code: "OK10", type: "percent", value: 10, maxUses: 1.5 }, "maxUses", "Maximum uses must be a whole number"],
    [
      { code: "OK10", type: "percent", value: 10, startsAt: "tomorrow" },
      "startsAt",
      "Starts must be a date and time such as 2026-12-01T10:00:00+05:00",
    ],
    [
      { code: "OK10", type: "percent", value: 10, endsAt: "2026-12-01T10:00:00" },
      "endsAt",
      "Ends must be a date and time such as 2026-12-01T10:00:00+05:00",
    ],
    [
      { code: "OK10", type: "percent", value: 10, startsAt: "2026-12-02T00:00:00Z", endsAt: "2026-12-01T00:00:00Z" },
      "endsAt",
      "Ends must be after Starts",
    ],
    [{ code: "OK10", type: "percent", value: 10, active: "maybe" }, "active", "Active must be true or false"],
  ])("refuses %o with 400 naming the field", async (body, field, message) => {
    const before = (await listCodes()).length;
    const response = await client.api("POST", "/discounts", { body, token: adminToken });
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ field, message });
    expect((await listCodes()).length).toBe(before);
  });
});
