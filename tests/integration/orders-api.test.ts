import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerId: string;
let customerToken: string;
let otherId: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@orders.test", password: "adminpass1", role: "admin" });
  customerId = await insertUser(server, { name: "Customer", email: "customer@orders.test", password: "custpass1" });
  otherId = await insertUser(server, { name: "Other", email: "other@orders.test", password: "otherpass1" });
  adminToken = await apiToken(client, "admin@orders.test", "adminpass1");
  customerToken = await apiToken(client, "customer@orders.test", "custpass1");
  otherToken = await apiToken(client, "other@orders.test", "otherpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  const db = server.database.db;
  await db("orders").del();
  await db("carts").del();
  await db("products").del();
});

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const missingId = "00000000-0000-4000-8000-000000000000";

/** A fresh customer with a token; a cheap bcrypt cost keeps the test quick (log-in accepts any cost). */
let shopperCount = 0;
async function newShopper(): Promise<{ id: string; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@orders.test`;
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

const placeOrder = (token: string, headers: Record<string, string> = {}, body: unknown = { address }) =>
  client.api("POST", "/orders", { body, token, headers });

const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
const orderCount = async () => Number((await server.database.db("orders").count("* as count").first())!.count);
const cartLines = async (token: string) =>
  (await client.api("GET", "/cart", { token })).body.data.cart.items.map(
    (line: { product: { _id: string }; quantity: number }) => [line.product._id, line.quantity],
  );

/** An order written straight into the database, with its creation time stated. */
async function insertOrder(order: {
  userId: string;
  status?: string;
  totalPrice: number;
  createdAt: Date;
  items?: { productId: string | null; name: string; quantity: number; unitPrice: number }[];
}): Promise<string> {
  const db = server.database.db;
  const user = await db("users").where({ id: order.userId }).first("name", "email");
  const [row] = await db("orders")
    .insert({
      userId: order.userId,
      customerName: user.name,
      customerEmail: user.email,
      ...address,
      totalPrice: order.totalPrice,
      status: order.status ?? "Pending",
      paymentMethod: "Cash on Delivery",
      createdAt: order.createdAt,
      updatedAt: order.createdAt,
    })
    .returning("id");
  const items = order.items ?? [{ productId: null, name: "Archived Watch", quantity: 1, unitPrice: order.totalPrice }];
  await db("order_items").insert(
    items.map((item, position) => ({
      orderId: row.id,
      productId: item.productId,
      productName: item.name,
      productImageUrl: "/images/archived.svg",
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      position,
    })),
  );
  return row.id;
}
const minute = (n: number) => new Date(Date.UTC(2026, 1, 1, 12, n));
const ids = (response: { body: { data: { _id: string }[] } }) => response.body.data.map((order) => order._id);

describe("POST /orders", () => {
  it("refuses an empty cart with 400 'Your cart is empty' (no cart yet, or an emptied one)", async () => {
    const first = await placeOrder(customerToken);
    expect(first.status).toBe(400);
    expect(first.body).toEqual({ success: false, message: "Your cart is empty" });

    const [id] = await insertProducts(server, [{ name: "Put Back" }]);
    await addToCart(customerToken, id!, 1);
    await client.api("DELETE", "/cart", { token: customerToken });
    const emptied = await placeOrder(customerToken);
    expect(emptied.status).toBe(400);
    expect(emptied.body).toEqual({ success: false, message: "Your cart is empty" });
    expect(await orderCount()).toBe(0);
  });

  it.each([
    [{ ...address, city: "" }, "address.city", "City is required"],
    [{ ...address, city: "   " }, "address.city", "City is required"],
    [{ ...address, street: undefined }, "address.street", "Street address is required"],
    [{ ...address, state: "" }, "address.state", "State / Province is required"],
    [{ ...address, zipCode: "" }, "address.zipCode", "ZIP / Postal code is required"],
    [
      { ...address, zipCode: "54000#" },
      "address.zipCode",
      "ZIP / Postal code may contain letters, digits, spaces and dashes only",
    ],
    [{ ...address, country: "" }, "address.country", "Country is required"],
    [{ ...address, street: "x".repeat(201) }, "address.street", "Street address must be at most 200 characters"],
    // Fields that are not text are bad input, never a crash (500).
    [{ ...address, city: { $ne: "" } }, "address.city", "City must be text"],
    [{ ...address, street: ["12 Mall Road"] }, "address.street", "Street address must be text"],
    // A whole address in one line, or a list, is not an address.
    [
      "12 Mall Road, Lahore",
      "address",
      "Address must have a street, city, state / province, ZIP / postal code and country",
    ],
    [[], "address", "Address must have a street, city, state / province, ZIP / postal code and country"],
  ])("refuses the address %o with 400 naming the field, changing nothing", async (badAddress, field, message) => {
    const [id] = await insertProducts(server, [{ name: "Wanted", stock: 5 }]);
    await addToCart(customerToken, id!, 2);
    const response = await placeOrder(customerToken, {}, { address: badAddress });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message, errors: [{ field, message }] });
    expect(await orderCount()).toBe(0);
    expect(await stockOf(id!)).toBe(5);
    expect(await cartLines(customerToken)).toEqual([[id, 2]]);
  });

  it("refuses a missing or empty address, naming every field, the first as the message", async () => {
    const [id] = await insertProducts(server, [{ name: "Wanted", stock: 5 }]);
    await addToCart(customerToken, id!, 1);
    for (const body of [{}, { address: {} }]) {
      const response = await placeOrder(customerToken, {}, body);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      const fields = response.body.errors.map((error: { field: string }) => error.field);
      expect(fields).toEqual(
        expect.arrayContaining([
          "address.street",
          "address.city",
          "address.state",
          "address.zipCode",
          "address.country",
        ]),
      );
      expect(response.body.message).toBe(response.body.errors[0].message);
    }
    expect(await orderCount()).toBe(0);
    expect(await stockOf(id!)).toBe(5);
  });

  it("places the order: 201 with the documented shape, stock taken, cart emptied", async () => {
    const [seamaster, casio] = await insertProducts(server, [
      { name: "Seamaster", price: 1000.1, stock: 5, imageUrl: "/images/watches/seamaster.svg" },
      { name: "Casio", price: 0.2, stock: 2, imageUrl: "https://cdn.example.com/casio.jpg" },
    ]);
    await addToCart(customerToken, seamaster!, 3);
    await addToCart(customerToken, casio!, 2);

    const response = await placeOrder(customerToken, {}, { address: { ...address, city: "  Lahore  " } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      message: "Order placed successfully",
      data: {
        _id: uuid,
        user: { _id: customerId, name: "Customer", email: "customer@orders.test" },
        items: expect.any(Array),
        address,
        // Without a phone of its own or in the profile, the order has none.
        phone: null,
        // Without a discount code the subtotal is the total (docs/api.md, "Discount codes").
        subtotal: 3000.7,
        discount: null,
        totalPrice: 3000.7,
        status: "Pending",
        paymentMethod: "Cash on Delivery",
        courier: null,
        trackingNumber: null,
        confirmedAt: null,
        // Waiting for the customer's answer; without a phone its messages would be in English.
        confirmation: { status: "pending", by: null, channel: null, at: null },
        language: "en",
        cancelReason: null,
        deliveredAt: null,
        outcome: null,
        // Cash on delivery: nothing to pay before the parcel arrives.
        payment: {
          method: "Cash on Delivery",
          status: "on-delivery",
          discount: null,
          reference: null,
          submittedAt: null,
          verifiedAmount: null,
          verifiedAt: null,
          rejectedReason: null,
          screenshot: false,
        },
        returns: [],
        shipment: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const items = [...response.body.data.items].sort((a, b) => a.product.name.localeCompare(b.product.name));
    expect(items).toEqual([
      {
        product: { _id: casio, name: "Casio", imageUrl: "https://cdn.example.com/casio.jpg", images: [] },
        quantity: 2,
        price: 0.2,
      },
      {
        product: {
          _id: seamaster,
          name: "Seamaster",
          imageUrl: "https://shop.example.pk/images/watches/seamaster.svg",
          images: [],
        },
        quantity: 3,
        price: 1000.1,
      },
    ]);
    expect(await stockOf(seamaster!)).toBe(2);
    expect(await stockOf(casio!)).toBe(0);
    const cart = await client.api("GET", "/cart", { token: customerToken });
    expect(cart.body.data.cart.items).toEqual([]);
    expect(cart.body.data.total).toBe(0);
    // The same order is what the customer and the admin read back.
    const read = await client.api("GET", `/orders/${response.body.data._id}`, { token: customerToken });
    expect(read.body.data).toEqual(response.body.data);
  });

  it("adds the total up exactly (3 × 1000.10 = 3000.3, 0.1 + 0.2 = 0.3)", async () => {
    const [pricey, tenth, fifth] = await insertProducts(server, [
      { name: "Pricey", price: 1000.1, stock: 5 },
      { name: "Tenth", price: 0.1, stock: 5 },
      { name: "Fifth", price: 0.2, stock: 5 },
    ]);
    await addToCart(customerToken, pricey!, 3);
    expect((await placeOrder(customerToken)).body.data.totalPrice).toBe(3000.3);
    await addToCart(customerToken, tenth!, 1);
    await addToCart(customerToken, fifth!, 1);
    expect((await placeOrder(customerToken)).body.data.totalPrice).toBe(0.3);
  });

  it("refuses with 409 when the cart holds more than is left now, naming the product, changing nothing", async () => {
    const [id] = await insertProducts(server, [{ name: "Dwindling", stock: 3 }]);
    await addToCart(customerToken, id!, 3);
    await server.database.db("products").where({ id }).update({ stock: 1 });
    const response = await placeOrder(customerToken);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, message: "Not enough stock available for Dwindling" });
    expect(await stockOf(id!)).toBe(1);
    expect(await cartLines(customerToken)).toEqual([[id, 3]]);
    expect(await orderCount()).toBe(0);
  });

  it("refuses a guest with 401", async () => {
    const response = await client.api("POST", "/orders", { body: { address } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, message: "Not authorized, please log in" });
  });
});

describe("prices and details are taken at order time", () => {
  it("keeps the unit price after the product is repriced, and name and image after it is deleted", async () => {
    const [id] = await insertProducts(server, [
      { name: "Speedmaster", price: 1000.1, stock: 5, imageUrl: "/images/speedy.svg" },
    ]);
    await addToCart(customerToken, id!, 3);
    const placed = await placeOrder(customerToken);
    const orderId = placed.body.data._id;

    const repriced = await client.api("PUT", `/products/${id}`, {
      body: {
        name: "Speedmaster",
        description: "Moonwatch",
        price: 2500,
        category: "Men",
        imageUrl: "/images/speedy.svg",
        stock: 2,
        brand: "Omega",
      },
      token: adminToken,
    });
    expect(repriced.status).toBe(200);
    const afterRepricing = await client.api("GET", `/orders/${orderId}`, { token: customerToken });
    expect(afterRepricing.body.data.items).toEqual([
      {
        product: { _id: id, name: "Speedmaster", imageUrl: "https://shop.example.pk/images/speedy.svg", images: [] },
        quantity: 3,
        price: 1000.1,
      },
    ]);
    expect(afterRepricing.body.data.totalPrice).toBe(3000.3);

    expect((await client.api("DELETE", `/products/${id}`, { token: adminToken })).status).toBe(200);
    for (const token of [customerToken, adminToken]) {
      const afterDeletion = await client.api("GET", `/orders/${orderId}`, { token });
      expect(afterDeletion.status).toBe(200);
      expect(afterDeletion.body.data.items).toEqual([
        {
          product: {
            _id: null,
            name: "Speedmaster",
            imageUrl: "https://shop.example.pk/images/speedy.svg",
            images: [],
          },
          quantity: 3,
          price: 1000.1,
        },
      ]);
      expect(afterDeletion.body.data.totalPrice).toBe(3000.3);
    }
    const mine = await client.api("GET", "/orders/me", { token: customerToken });
    expect(mine.body.data[0].items[0].product).toEqual({
      _id: null,
      name: "Speedmaster",
      imageUrl: "https://shop.example.pk/images/speedy.svg",
      images: [],
    });
  });
});

describe("checkout under concurrency", () => {
  it("sells a stock of 3 to exactly 3 of 10 customers checking out at once; the others keep their cart", async () => {
    const [id] = await insertProducts(server, [{ name: "Limited Edition", price: 5000, stock: 3 }]);
    const shoppers = await Promise.all(Array.from({ length: 10 }, () => newShopper()));
    for (const shopper of shoppers) await addToCart(shopper.token, id!, 1);

    const responses = await Promise.all(shoppers.map((shopper) => placeOrder(shopper.token)));
    const winners = shoppers.filter((_, index) => responses[index]!.status === 201);
    const losers = shoppers.filter((_, index) => responses[index]!.status !== 201);
    expect(winners).toHaveLength(3);
    expect(losers).toHaveLength(7);
    for (const response of responses.filter((response) => response.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.success).toBe(false);
      expect(response.body.message.startsWith("Not enough stock available")).toBe(true);
    }
    expect(await stockOf(id!)).toBe(0);
    expect(await orderCount()).toBe(3);
    for (const loser of losers) expect(await cartLines(loser.token)).toEqual([[id, 1]]);
    for (const winner of winners) expect(await cartLines(winner.token)).toEqual([]);
  });

  it("lets customers whose carts hold the same products in different orders all check out at once (no deadlock)", async () => {
    const [first, second] = await insertProducts(server, [
      { name: "First", stock: 100 },
      { name: "Second", stock: 100 },
    ]);
    const shoppers = await Promise.all(Array.from({ length: 8 }, () => newShopper()));
    for (const [index, shopper] of shoppers.entries()) {
      const order = index % 2 === 0 ? [first!, second!] : [second!, first!];
      for (const productId of order) await addToCart(shopper.token, productId, 2);
    }
    const responses = await Promise.all(shoppers.map((shopper) => placeOrder(shopper.token)));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(await stockOf(first!)).toBe(84);
    expect(await stockOf(second!)).toBe(84);
  });

  it("makes one order of a double submit: one 201, one 400 'Your cart is empty'", async () => {
    const [id] = await insertProducts(server, [{ name: "Once", stock: 5 }]);
    await addToCart(customerToken, id!, 2);
    const responses = await Promise.all([placeOrder(customerToken), placeOrder(customerToken)]);
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 400]);
    expect(responses.find((response) => response.status === 400)!.body).toEqual({
      success: false,
      message: "Your cart is empty",
    });
    expect(await orderCount()).toBe(1);
    expect(await stockOf(id!)).toBe(3);
  });
});

describe("Idempotency-Key", () => {
  it("answers a retried request with the first order instead of making a second", async () => {
    const [id] = await insertProducts(server, [{ name: "Retried", price: 100, stock: 5 }]);
    await addToCart(customerToken, id!, 2);
    const headers = { "Idempotency-Key": "checkout-7f3a" };
    const first = await placeOrder(customerToken, headers);
    expect(first.status).toBe(201);
    const retry = await placeOrder(customerToken, headers);
    expect(retry.status).toBe(201);
    expect(retry.body.data._id).toBe(first.body.data._id);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await orderCount()).toBe(1);
    expect(await stockOf(id!)).toBe(3);

    // Even with the cart filled again, the same key gives back the first order and leaves the cart alone.
    await addToCart(customerToken, id!, 1);
    const later = await placeOrder(customerToken, headers);
    expect(later.body.data._id).toBe(first.body.data._id);
    expect(await cartLines(customerToken)).toEqual([[id, 1]]);
    // A new key is a new order.
    const fresh = await placeOrder(customerToken, { "Idempotency-Key": "checkout-8b21" });
    expect(fresh.status).toBe(201);
    expect(fresh.body.data._id).not.toBe(first.body.data._id);
    expect(await orderCount()).toBe(2);
  });

  it("makes one order of two simultaneous requests with the same key, both answered with it", async () => {
    const [id] = await insertProducts(server, [{ name: "Raced", stock: 5 }]);
    await addToCart(customerToken, id!, 1);
    const headers = { "Idempotency-Key": "same-key-twice" };
    const [a, b] = await Promise.all([placeOrder(customerToken, headers), placeOrder(customerToken, headers)]);
    expect([a!.status, b!.status]).toEqual([201, 201]);
    expect(a!.body.data._id).toBe(b!.body.data._id);
    expect(await orderCount()).toBe(1);
    expect(await stockOf(id!)).toBe(4);
  });

  it("is the customer's own: another customer using the same key gets their own order", async () => {
    const [id] = await insertProducts(server, [{ name: "Shared Key", stock: 5 }]);
    await addToCart(customerToken, id!, 1);
    await addToCart(otherToken, id!, 1);
    const headers = { "Idempotency-Key": "common-key" };
    const mine = await placeOrder(customerToken, headers);
    const theirs = await placeOrder(otherToken, headers);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data._id).not.toBe(mine.body.data._id);
    expect(theirs.body.data.user._id).toBe(otherId);
  });

  it("refuses a key longer than 100 characters with 400, changing nothing", async () => {
    const [id] = await insertProducts(server, [{ name: "Long Key", stock: 5 }]);
    await addToCart(customerToken, id!, 1);
    const response = await placeOrder(customerToken, { "Idempotency-Key": "k".repeat(101) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      message: "Idempotency key must be at most 100 characters",
      errors: [{ field: "idempotencyKey", message: "Idempotency key must be at most 100 characters" }],
    });
    expect(await orderCount()).toBe(0);
    expect(await stockOf(id!)).toBe(5);
  });
});

describe("GET /orders/me", () => {
  it("lists only the caller's orders, newest first, with meta.count", async () => {
    const older = await insertOrder({ userId: customerId, totalPrice: 100, createdAt: minute(1) });
    const newest = await insertOrder({ userId: customerId, totalPrice: 300, createdAt: minute(9) });
    const middle = await insertOrder({
      userId: customerId,
      totalPrice: 200,
      createdAt: minute(5),
      status: "Cancelled",
    });
    await insertOrder({ userId: otherId, totalPrice: 999, createdAt: minute(7) });

    const response = await client.api("GET", "/orders/me", { token: customerToken });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(ids(response)).toEqual([newest, middle, older]);
    expect(response.body.meta).toMatchObject({ count: 3 });
    expect(response.body.data.map((order: { totalPrice: number }) => order.totalPrice)).toEqual([300, 200, 100]);
    expect(response.body.data[0].items[0]).toEqual({
      product: {
        _id: null,
        name: "Archived Watch",
        imageUrl: "https://shop.example.pk/images/archived.svg",
        images: [],
      },
      quantity: 1,
      price: 300,
    });
  });

  it("lists orders placed one after another newest first", async () => {
    const [id] = await insertProducts(server, [{ name: "Repeat", stock: 10 }]);
    const placed: string[] = [];
    for (let index = 0; index < 3; index++) {
      await addToCart(customerToken, id!, 1);
      placed.push((await placeOrder(customerToken)).body.data._id);
    }
    const response = await client.api("GET", "/orders/me", { token: customerToken });
    expect(ids(response)).toEqual([...placed].reverse());
    expect(response.body.meta).toMatchObject({ count: 3 });
  });

  it("pages, filters by status and totals like the admin list (the same shape)", async () => {
    for (let minuteNumber = 1; minuteNumber <= 5; minuteNumber++) {
      await insertOrder({
        userId: customerId,
        totalPrice: minuteNumber * 100,
        createdAt: minute(minuteNumber),
        status: minuteNumber === 2 ? "Cancelled" : "Pending",
      });
    }
    await insertOrder({ userId: otherId, totalPrice: 5000, createdAt: minute(6) });

    const second = await client.api("GET", "/orders/me?page=2&limit=2", { token: customerToken });
    expect(second.status).toBe(200);
    expect(second.body.data.map((order: { totalPrice: number }) => order.totalPrice)).toEqual([300, 200]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    // Cancelled orders are not revenue; another customer's orders are not counted at all.
    expect(second.body.meta).toEqual({ count: 5, totalAmount: 1300 });

    const cancelled = await client.api("GET", "/orders/me?status=Cancelled", { token: customerToken });
    expect(cancelled.body.data.map((order: { totalPrice: number }) => order.totalPrice)).toEqual([200]);
    expect(cancelled.body.meta).toEqual({ count: 1, totalAmount: 0 });

    const refused = await client.api("GET", "/orders/me?limit=1001", { token: customerToken });
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
  });

  it("gives a customer without orders an empty list, and a guest 401", async () => {
    const empty = await client.api("GET", "/orders/me", { token: otherToken });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toMatchObject({ count: 0 });
    expect((await client.api("GET", "/orders/me")).status).toBe(401);
  });
});

describe("GET /orders/:id", () => {
  it("shows the order to its owner and to an admin; to anyone else it does not exist", async () => {
    const orderId = await insertOrder({ userId: customerId, totalPrice: 1500.5, createdAt: minute(1) });
    const owner = await client.api("GET", `/orders/${orderId}`, { token: customerToken });
    expect(owner.status).toBe(200);
    expect(owner.body.success).toBe(true);
    expect(owner.body.data).toMatchObject({
      _id: orderId,
      user: { _id: customerId, name: "Customer", email: "customer@orders.test" },
      totalPrice: 1500.5,
      status: "Pending",
      paymentMethod: "Cash on Delivery",
      address,
    });
    const admin = await client.api("GET", `/orders/${orderId}`, { token: adminToken });
    expect(admin.status).toBe(200);
    expect(admin.body.data).toEqual(owner.body.data);

    const stranger = await client.api("GET", `/orders/${orderId}`, { token: otherToken });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ success: false, message: "Order not found" });
  });

  it("answers 404 'Order not found' for an unknown or malformed id, and 401 to a guest", async () => {
    const orderId = await insertOrder({ userId: customerId, totalPrice: 10, createdAt: minute(1) });
    for (const id of [missingId, "not-an-id", "123"]) {
      for (const token of [customerToken, adminToken]) {
        const response = await client.api("GET", `/orders/${id}`, { token });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, message: "Order not found" });
      }
    }
    expect((await client.api("GET", `/orders/${orderId}`)).status).toBe(401);
  });
});

describe("GET /orders (admin)", () => {
  /** Five orders a minute apart: newest first they are e, d, c, b, a. */
  async function fiveOrders() {
    const a = await insertOrder({ userId: customerId, totalPrice: 1000.1, createdAt: minute(1), status: "Pending" });
    const b = await insertOrder({ userId: otherId, totalPrice: 500, createdAt: minute(2), status: "Cancelled" });
    const c = await insertOrder({ userId: customerId, totalPrice: 0.2, createdAt: minute(3), status: "Shipped" });
    const d = await insertOrder({ userId: otherId, totalPrice: 0.1, createdAt: minute(4), status: "Delivered" });
    const e = await insertOrder({ userId: customerId, totalPrice: 2000.2, createdAt: minute(5), status: "Pending" });
    return { a, b, c, d, e };
  }

  it("refuses a guest with 401 and a customer with 403", async () => {
    const guest = await client.api("GET", "/orders");
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ success: false, message: "Not authorized, please log in" });
    const customer = await client.api("GET", "/orders", { token: customerToken });
    expect(customer.status).toBe(403);
    expect(customer.body).toEqual({ success: false, message: "Not authorized as an admin" });
  });

  it("lists every order newest first; meta.totalAmount leaves Cancelled orders out, exactly", async () => {
    const { a, b, c, d, e } = await fiveOrders();
    const response = await client.api("GET", "/orders", { token: adminToken });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(ids(response)).toEqual([e, d, c, b, a]);
    expect(response.body.meta).toEqual({ count: 5, totalAmount: 3000.6 });
    expect(response.body.pagination).toEqual({ page: 1, limit: 1000, total: 5, totalPages: 1 });
    // Existing clients send every parameter, empty ones meaning the default.
    const withEmpties = await client.api("GET", "/orders?page=&limit=&status=", { token: adminToken });
    expect(withEmpties.status).toBe(200);
    expect(ids(withEmpties)).toEqual([e, d, c, b, a]);
  });

  it("pages with page and limit; meta counts every matching order, not just the page", async () => {
    const { a, b, c, d, e } = await fiveOrders();
    const second = await client.api("GET", "/orders?page=2&limit=2", { token: adminToken });
    expect(ids(second)).toEqual([c, b]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    expect(second.body.meta).toEqual({ count: 5, totalAmount: 3000.6 });
    expect(ids(await client.api("GET", "/orders?page=3&limit=2", { token: adminToken }))).toEqual([a]);
    expect(ids(await client.api("GET", "/orders?page=1&limit=2", { token: adminToken }))).toEqual([e, d]);
    expect((await client.api("GET", "/orders?page=4&limit=2", { token: adminToken })).body.data).toEqual([]);
  });

  it("filters by status", async () => {
    const { a, b, e } = await fiveOrders();
    const pending = await client.api("GET", "/orders?status=Pending", { token: adminToken });
    expect(ids(pending)).toEqual([e, a]);
    expect(pending.body.meta).toEqual({ count: 2, totalAmount: 3000.3 });
    const cancelled = await client.api("GET", "/orders?status=Cancelled", { token: adminToken });
    expect(ids(cancelled)).toEqual([b]);
    expect(cancelled.body.meta).toEqual({ count: 1, totalAmount: 0 });
    const none = await client.api("GET", "/orders?status=Pending&page=1&limit=1", { token: adminToken });
    expect(ids(none)).toEqual([e]);
    expect(none.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
  });

  it("answers an empty store with no orders, count 0 and totalAmount 0", async () => {
    const response = await client.api("GET", "/orders", { token: adminToken });
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ count: 0, totalAmount: 0 });
  });

  it.each([
    ["limit=1001", "limit", "Limit must be between 1 and 1000"],
    ["limit=0", "limit", "Limit must be between 1 and 1000"],
    ["limit=2.5", "limit", "Limit must be a whole number"],
    ["page=0", "page", "Page must be at least 1"],
    ["page=abc", "page", "Page must be a number"],
    ["status=Lost", "status", "Status must be one of Pending, Shipped, Delivered, Cancelled"],
    ["status=pending", "status", "Status must be one of Pending, Shipped, Delivered, Cancelled"],
    ["status=Pending&status=Shipped", "status", "Status must be one of Pending, Shipped, Delivered, Cancelled"],
  ])("answers 400 with the envelope for %s", async (query, field, message) => {
    const response = await client.api("GET", `/orders?${query}`, { token: adminToken });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message, errors: [{ field, message }] });
  });
});

describe("PATCH /orders/:id/status", () => {
  /** A real order of `quantity` units of a product that had `stock`. */
  async function placedOrder(stock: number, quantity: number, token = customerToken) {
    const [productId] = await insertProducts(server, [{ name: "Status Watch", price: 250, stock }]);
    await addToCart(token, productId!, quantity);
    const placed = await placeOrder(token);
    expect(placed.status).toBe(201);
    return { productId: productId!, orderId: placed.body.data._id as string };
  }
  const setStatus = (orderId: string, status: unknown, token = adminToken) =>
    client.api("PATCH", `/orders/${orderId}/status`, { body: { status }, token });
  const statusOf = async (orderId: string) =>
    (await server.database.db("orders").where({ id: orderId }).first("status")).status;

  it("is for admins only: a guest gets 401, a customer (even the owner) 403, nothing changes", async () => {
    const { orderId } = await placedOrder(5, 1);
    const guest = await client.api("PATCH", `/orders/${orderId}/status`, { body: { status: "Shipped" } });
    expect(guest.status).toBe(401);
    const owner = await setStatus(orderId, "Shipped", customerToken);
    expect(owner.status).toBe(403);
    expect(owner.body).toEqual({ success: false, message: "Not authorized as an admin" });
    expect(await statusOf(orderId)).toBe("Pending");
  });

  it("sets a status and answers the order", async () => {
    const { orderId } = await placedOrder(5, 1);
    const response = await setStatus(orderId, "Shipped");
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toBe("Order status updated");
    expect(response.body.data).toMatchObject({ _id: orderId, status: "Shipped", totalPrice: 250 });
    expect((await client.api("GET", `/orders/${orderId}`, { token: customerToken })).body.data.status).toBe("Shipped");
  });

  it.each([
    ["Lost", "Status must be one of Pending, Shipped, Delivered, Cancelled"],
    ["shipped", "Status must be one of Pending, Shipped, Delivered, Cancelled"],
    [undefined, "Status is required"],
    [{ $ne: "Pending" }, "Status must be one of Pending, Shipped, Delivered, Cancelled"],
  ])("refuses the status %o with 400", async (status, message) => {
    const { orderId } = await placedOrder(5, 1);
    const response = await setStatus(orderId, status);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message, errors: [{ field: "status", message }] });
    expect(await statusOf(orderId)).toBe("Pending");
  });

  it("answers 404 'Order not found' for an unknown or malformed id", async () => {
    for (const id of [missingId, "not-an-id"]) {
      const response = await setStatus(id, "Shipped");
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Order not found" });
    }
  });

  it("returns the stock when an order is cancelled, and claims it again when it is restored", async () => {
    const { productId, orderId } = await placedOrder(5, 2);
    expect(await stockOf(productId)).toBe(3);
    expect((await setStatus(orderId, "Cancelled")).body.data.status).toBe("Cancelled");
    expect(await stockOf(productId)).toBe(5);
    expect((await setStatus(orderId, "Pending")).body.data.status).toBe("Pending");
    expect(await stockOf(productId)).toBe(3);
  });

  it("refuses with 409 to restore a cancelled order whose stock has since been sold, changing nothing", async () => {
    const { productId, orderId } = await placedOrder(2, 2);
    await setStatus(orderId, "Cancelled");
    expect(await stockOf(productId)).toBe(2);
    // Another customer buys the returned units.
    await addToCart(otherToken, productId, 2);
    expect((await placeOrder(otherToken)).status).toBe(201);
    expect(await stockOf(productId)).toBe(0);

    const response = await setStatus(orderId, "Shipped");
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      success: false,
      message: "Cannot restore this order: not enough stock for Status Watch",
    });
    expect(await stockOf(productId)).toBe(0);
    expect(await statusOf(orderId)).toBe("Cancelled");
  });

  it("changes no stock for Cancelled → Cancelled, Pending → Shipped or Shipped → Delivered", async () => {
    const { productId, orderId } = await placedOrder(5, 2);
    await setStatus(orderId, "Cancelled");
    expect(await stockOf(productId)).toBe(5);
    expect((await setStatus(orderId, "Cancelled")).status).toBe(200);
    expect(await stockOf(productId)).toBe(5);

    const second = await placedOrder(5, 2);
    expect((await setStatus(second.orderId, "Shipped")).status).toBe(200);
    expect(await stockOf(second.productId)).toBe(3);
    expect((await setStatus(second.orderId, "Delivered")).status).toBe(200);
    expect(await stockOf(second.productId)).toBe(3);
    expect(await statusOf(second.orderId)).toBe("Delivered");
  });

  it("cancels an order whose product was deleted, but refuses to restore it (the watch is no longer sold)", async () => {
    const { productId, orderId } = await placedOrder(5, 1);
    expect((await client.api("DELETE", `/products/${productId}`, { token: adminToken })).status).toBe(200);
    expect((await setStatus(orderId, "Cancelled")).status).toBe(200);
    const restore = await setStatus(orderId, "Pending");
    expect(restore.status).toBe(409);
    expect(restore.body).toEqual({
      success: false,
      message: "Cannot restore this order: Status Watch is no longer sold",
    });
    expect(await statusOf(orderId)).toBe("Cancelled");
  });
});

describe("dashboard figures", () => {
  it("counts orders, products and pending orders; splits revenue into collected (delivered, less refunds paid), to collect and cancelled; gives the 5 latest", async () => {
    await insertProducts(server, [{ name: "One" }, { name: "Two" }, { name: "Three" }]);
    const placed = [
      await insertOrder({ userId: customerId, totalPrice: 100.1, createdAt: minute(1), status: "Delivered" }),
      await insertOrder({ userId: otherId, totalPrice: 0.1, createdAt: minute(2), status: "Pending" }),
      await insertOrder({ userId: customerId, totalPrice: 9999.99, createdAt: minute(3), status: "Cancelled" }),
      await insertOrder({ userId: customerId, totalPrice: 0.2, createdAt: minute(4), status: "Shipped" }),
      await insertOrder({ userId: otherId, totalPrice: 50, createdAt: minute(5), status: "Pending" }),
      await insertOrder({ userId: customerId, totalPrice: 1000, createdAt: minute(6), status: "Pending" }),
    ];
    // A refund paid for part of the delivered order, one asked for and not yet paid, and a refund
    // of an order cancelled since: only the paid refund of a standing order comes out of the till.
    const delivered = placed[0]!;
    await server.database.db("order_returns").insert([
      { orderId: delivered, reason: "Wrong item", status: "Received", refundAmount: 40.05, refundMethod: "Cash" },
      { orderId: delivered, reason: "Other", status: "Requested", refundAmount: 60 },
      { orderId: placed[2]!, reason: "Other", status: "Received", refundAmount: 500, refundMethod: "Cash" },
    ]);
    const figures = await server.services.reports.dashboardFigures();
    expect(figures).toMatchObject({
      totalOrders: 6,
      totalProducts: 3,
      revenue: { collected: 60.05, toCollect: 1050.3, cancelled: 9999.99, total: 1110.35 },
      pendingOrders: 3,
      unconfirmedOrders: 3,
    });
    expect(figures.latestOrders.map((order) => order._id)).toEqual(placed.slice(1).reverse());
    expect(figures.latestOrders[0]).toMatchObject({ totalPrice: 1000, status: "Pending", user: { _id: customerId } });
  });

  it("is all zeros for an empty store", async () => {
    expect(await server.services.reports.dashboardFigures()).toEqual({
      totalOrders: 0,
      totalProducts: 0,
      revenue: { collected: 0, toCollect: 0, cancelled: 0, total: 0 },
      pendingOrders: 0,
      unconfirmedOrders: 0,
      confirmationToday: { asked: 0, confirmed: 0 },
      awaitingConfirmation: 0,
      latestOrders: [],
    });
  });
});
