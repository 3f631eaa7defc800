/** An admin changing an order's status through PATCH /api/v1/orders/:id/status, and the stock that follows. */
import { describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import {
  addToCart,
  adminToken,
  client,
  customerToken,
  missingId,
  otherToken,
  placeOrder,
  server,
  stockOf,
  withOrdersApiStore,
} from "../support/orders-api";

withOrdersApiStore();

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
