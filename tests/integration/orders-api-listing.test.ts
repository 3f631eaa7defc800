/** Reading orders through the API: a customer's own, one order, and the admin's list. */
import { describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import {
  address,
  addToCart,
  adminToken,
  client,
  customerId,
  customerToken,
  ids,
  insertOrder,
  minute,
  missingId,
  otherId,
  otherToken,
  placeOrder,
  server,
  withOrdersApiStore,
} from "../support/orders-api";

withOrdersApiStore();

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
