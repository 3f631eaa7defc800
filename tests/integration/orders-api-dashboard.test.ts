/** The admin dashboard's figures, from the orders in the store. */
import { describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import { customerId, insertOrder, minute, otherId, server, withOrdersApiStore } from "../support/orders-api";

withOrdersApiStore();

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
