/** Placing an order through POST /api/v1/orders: its checks, its prices, and orders placed at once or again. */
import { describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import {
  address,
  addToCart,
  adminToken,
  cartLines,
  client,
  customerId,
  customerToken,
  newShopper,
  orderCount,
  otherId,
  otherToken,
  placeOrder,
  server,
  stockOf,
  withOrdersApiStore,
  uuid,
} from "../support/orders-api";

withOrdersApiStore();

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
        confirmation: { status: "pending", by: null, channel: null, at: null, textLimited: false },
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
        // Its life as the order's rules read it: all of it is collected at the door, and nothing
        // ships before the customer answers; they may still cancel or answer.
        amountDue: 3000.7,
        collectOnDelivery: 3000.7,
        readyToShip: false,
        refund: null,
        actions: {
          answer: true,
          book: false,
          cancel: true,
          confirm: true,
          recordRefund: false,
          reviewPayment: false,
          sendReference: false,
          ship: true,
          undoConfirmation: false,
        },
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
