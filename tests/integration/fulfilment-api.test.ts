/**
 * Orders a courier can deliver, through the JSON API (docs/api.md, "Orders"): the receiver's
 * mobile number, the courier and tracking number set with Shipped, and the confirmation by phone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminId: string;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  adminId = await insertUser(server, {
    name: "Desk Admin",
    email: "admin@fulfilment.test",
    password: "adminpass1",
    role: "admin",
  });
  adminToken = await apiToken(client, "admin@fulfilment.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("orders").del();
});

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const PHONE_MESSAGE = "Enter a Pakistani mobile number, e.g. 0300-1234567";
const missingId = "00000000-0000-4000-8000-000000000000";

let shopperCount = 0;
/** A fresh customer (with a profile phone when given), a token, and a watch in the cart. */
async function shopperWithCart(profilePhone = ""): Promise<{ id: string; token: string; productId: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@fulfilment.test`;
  const [row] = await server.database
    .db("users")
    .insert({
      name: `Shopper ${shopperCount}`,
      email,
      passwordHash: await hashPassword("shopperpass1", 4),
      phone: profilePhone,
    })
    .returning("id");
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Parcel Watch ${shopperCount}`, price: 2500, stock: 5 }]);
  const added = await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token });
  expect(added.status).toBe(200);
  return { id: row.id, token, productId: productId! };
}

const placeOrder = (token: string, body: unknown) => client.api("POST", "/orders", { body, token });
const profilePhone = async (id: string) => (await server.database.db("users").where({ id }).first("phone")).phone;
const orderRow = async (id: string) => server.database.db("orders").where({ id }).first();

async function placedOrder(phone = "0300-1234567") {
  const shopper = await shopperWithCart();
  const placed = await placeOrder(shopper.token, { address, phone });
  expect(placed.status).toBe(201);
  return { ...shopper, orderId: placed.body.data._id as string };
}

const setStatus = (orderId: string, body: unknown, token = adminToken) =>
  client.api("PATCH", `/orders/${orderId}/status`, { body, token });
const confirm = (orderId: string, token = adminToken) => client.api("POST", `/orders/${orderId}/confirm`, { token });

describe("POST /orders with a phone", () => {
  it.each([
    ["0300-1234567", "+923001234567"],
    ["03001234567", "+923001234567"],
    ["+92 300 1234567", "+923001234567"],
    ["+923451234567", "+923451234567"],
    ["  0321 123 4567  ", "+923211234567"],
    ["0333-123-4567", "+923331234567"],
    ["+92-300-1234567", "+923001234567"],
  ])("takes %j and stores it as %s", async (phone, stored) => {
    const { token } = await shopperWithCart();
    const response = await placeOrder(token, { address, phone });
    expect(response.status).toBe(201);
    expect(response.body.data.phone).toBe(stored);
    expect((await orderRow(response.body.data._id)).phone).toBe(stored);
  });

  it.each([
    "0300-123456",
    "030012345678",
    "04001234567",
    "+92 42 3578 1234",
    "923001234567",
    "0092 300 1234567",
    "(0300) 1234567",
    "0300.1234567",
    "0300-1234567x",
    "+93 300 1234567",
    "٠٣٠٠١٢٣٤٥٦٧",
    "0300\u00a01234567",
    "3001234567",
    3001234567,
    { number: "03001234567" },
    ["03001234567"],
    true,
    "0".repeat(400),
  ])("refuses %j with 400 on the phone field, making no order and keeping the cart", async (phone) => {
    const { token, productId } = await shopperWithCart();
    const response = await placeOrder(token, { address, phone });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      message: PHONE_MESSAGE,
      errors: [{ field: "phone", message: PHONE_MESSAGE }],
    });
    expect(Number((await server.database.db("orders").count("* as count").first())!.count)).toBe(0);
    const cart = await client.api("GET", "/cart", { token });
    expect(cart.body.data.cart.items.map((line: { product: { _id: string } }) => line.product._id)).toEqual([
      productId,
    ]);
  });

  it("takes an old-style body with only the address: the order has no phone when the profile has none", async () => {
    const { id, token } = await shopperWithCart();
    const response = await placeOrder(token, { address });
    expect(response.status).toBe(201);
    expect(response.body.data.phone).toBeNull();
    expect(await profilePhone(id)).toBe("");
    // An empty or null phone is "not given", as clients that send every field write it.
    for (const phone of ["", "   ", null]) {
      const again = await shopperWithCart();
      const placed = await placeOrder(again.token, { address, phone });
      expect(placed.status).toBe(201);
      expect(placed.body.data.phone).toBeNull();
    }
  });

  it("uses the profile's phone when the body has none, if it is a Pakistani mobile number", async () => {
    const mobile = await shopperWithCart("+92 300 7654321");
    expect((await placeOrder(mobile.token, { address })).body.data.phone).toBe("+923007654321");
    const landline = await shopperWithCart("+92 42 3578 1234");
    expect((await placeOrder(landline.token, { address })).body.data.phone).toBeNull();
    const scribble = await shopperWithCart("call me (evenings)");
    expect((await placeOrder(scribble.token, { address })).body.data.phone).toBeNull();
  });

  it("fills an empty profile phone from the order's, and never overwrites one", async () => {
    const empty = await shopperWithCart();
    expect((await placeOrder(empty.token, { address, phone: "+92 300 1112223" })).status).toBe(201);
    expect(await profilePhone(empty.id)).toBe("0300-1112223");
    const me = await client.api("GET", "/auth/me", { token: empty.token });
    expect(me.body.data.user.phone).toBe("0300-1112223");

    const kept = await shopperWithCart("042 3578 1234");
    const placed = await placeOrder(kept.token, { address, phone: "0300-9998887" });
    expect(placed.body.data.phone).toBe("+923009998887");
    expect(await profilePhone(kept.id)).toBe("042 3578 1234");
  });

  it("answers phone, courier, trackingNumber and confirmedAt in every order answer", async () => {
    const { token, orderId } = await placedOrder();
    const keys = ["phone", "courier", "trackingNumber", "confirmedAt"];
    const one = await client.api("GET", `/orders/${orderId}`, { token });
    const mine = await client.api("GET", "/orders/me", { token });
    const all = await client.api("GET", "/orders", { token: adminToken });
    for (const order of [one.body.data, mine.body.data[0], all.body.data[0]]) {
      for (const key of keys) expect(order, key).toHaveProperty(key);
      expect(order).toMatchObject({ phone: "+923001234567", courier: null, trackingNumber: null, confirmedAt: null });
    }
  });

  it("is described in the OpenAPI document: the phone in, the new fields out, the confirm call", async () => {
    const document = (await fetch(`${server.baseUrl}/api/v1/openapi.json`).then((response) => response.json())) as any;
    const body = document.paths["/orders"].post.requestBody.content["application/json"].schema;
    expect(body.properties).toHaveProperty("phone");
    expect(body.required).toEqual(["address"]);
    const order =
      document.paths["/orders/{id}"].get.responses["200"].content["application/json"].schema.properties.data;
    expect(order.required).toEqual(expect.arrayContaining(["phone", "courier", "trackingNumber", "confirmedAt"]));
    expect(order.properties.phone.type).toEqual(["string", "null"]);
    expect(order.properties.courier.enum).toEqual([
      "TCS",
      "Leopards",
      "M&P",
      "Trax",
      "PostEx",
      "BlueEx",
      "Call Courier",
      "Pakistan Post",
      "Other",
      null,
    ]);
    const status = document.paths["/orders/{id}/status"].patch.requestBody.content["application/json"].schema;
    expect(Object.keys(status.properties)).toEqual(["status", "courier", "trackingNumber"]);
    expect(status.required).toEqual(["status"]);
    const confirmCall = document.paths["/orders/{id}/confirm"].post;
    expect(Object.keys(confirmCall.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "404", "409"]));
  });
});

describe("PATCH /orders/:id/status with courier and tracking number", () => {
  it("sets them with Shipped and answers them; they stay through later status changes", async () => {
    const { token, orderId } = await placedOrder();
    const shipped = await setStatus(orderId, { status: "Shipped", courier: "TCS", trackingNumber: " TCS-778899 " });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({ status: "Shipped", courier: "TCS", trackingNumber: "TCS-778899" });
    for (const status of ["Delivered", "Cancelled", "Pending"]) {
      const changed = await setStatus(orderId, { status });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ status, courier: "TCS", trackingNumber: "TCS-778899" });
    }
    const customerView = await client.api("GET", `/orders/${orderId}`, { token });
    expect(customerView.body.data).toMatchObject({ courier: "TCS", trackingNumber: "TCS-778899" });
  });

  it("keeps a status-only Shipped working (courier and tracking number stay null), and changes one at a time", async () => {
    const { orderId } = await placedOrder();
    const shipped = await setStatus(orderId, { status: "Shipped" });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({ status: "Shipped", courier: null, trackingNumber: null });
    expect((await setStatus(orderId, { status: "Shipped", courier: "Leopards" })).body.data).toMatchObject({
      courier: "Leopards",
      trackingNumber: null,
    });
    expect((await setStatus(orderId, { status: "Shipped", trackingNumber: "LP1234" })).body.data).toMatchObject({
      courier: "Leopards",
      trackingNumber: "LP1234",
    });
    // Empty values are "not given": nothing is cleared.
    expect(
      (await setStatus(orderId, { status: "Shipped", courier: "", trackingNumber: null })).body.data,
    ).toMatchObject({ courier: "Leopards", trackingNumber: "LP1234" });
  });

  it.each([
    [{ status: "Pending", courier: "TCS" }, "courier", "A courier can only be given with the status Shipped"],
    [
      { status: "Delivered", trackingNumber: "TCS-1234" },
      "trackingNumber",
      "A tracking number can only be given with the status Shipped",
    ],
    [
      { status: "Shipped", courier: "tcs" },
      "courier",
      "Courier must be one of TCS, Leopards, M&P, Trax, PostEx, BlueEx, Call Courier, Pakistan Post, Other",
    ],
    [
      { status: "Shipped", courier: { $ne: "" } },
      "courier",
      "Courier must be one of TCS, Leopards, M&P, Trax, PostEx, BlueEx, Call Courier, Pakistan Post, Other",
    ],
    [
      { status: "Shipped", trackingNumber: "abc" },
      "trackingNumber",
      "Tracking number must be 4 to 40 letters, digits and dashes",
    ],
    [
      { status: "Shipped", trackingNumber: "A".repeat(41) },
      "trackingNumber",
      "Tracking number must be 4 to 40 letters, digits and dashes",
    ],
    [
      { status: "Shipped", trackingNumber: "TCS 1234" },
      "trackingNumber",
      "Tracking number must be 4 to 40 letters, digits and dashes",
    ],
    [
      { status: "Shipped", trackingNumber: "TCS_1234" },
      "trackingNumber",
      "Tracking number must be 4 to 40 letters, digits and dashes",
    ],
    [
      { status: "Shipped", trackingNumber: ["TCS-1234"] },
      "trackingNumber",
      "Tracking number must be 4 to 40 letters, digits and dashes",
    ],
  ])("refuses %j with 400 naming %s, changing nothing", async (body, field, message) => {
    const { orderId } = await placedOrder();
    const before = await orderRow(orderId);
    const response = await setStatus(orderId, body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(response.body.errors).toContainEqual({ field, message });
    expect(await orderRow(orderId)).toEqual(before);
  });

  it("takes 40 characters and every one of the nine couriers", async () => {
    const { orderId } = await placedOrder();
    for (const courier of [
      "TCS",
      "Leopards",
      "M&P",
      "Trax",
      "PostEx",
      "BlueEx",
      "Call Courier",
      "Pakistan Post",
      "Other",
    ]) {
      const response = await setStatus(orderId, { status: "Shipped", courier, trackingNumber: "Z-".repeat(20) });
      expect(response.status, courier).toBe(200);
      expect(response.body.data.courier).toBe(courier);
    }
  });
});

describe("POST /orders/:id/confirm", () => {
  it("is for admins: a guest gets 401, the owner 403, and nothing changes", async () => {
    const { token, orderId } = await placedOrder();
    expect((await client.api("POST", `/orders/${orderId}/confirm`)).status).toBe(401);
    const owner = await confirm(orderId, token);
    expect(owner.status).toBe(403);
    expect(owner.body).toEqual({ success: false, message: "Not authorized as an admin" });
    expect((await orderRow(orderId)).confirmedAt).toBeNull();
  });

  it("sets confirmedAt (and who) and answers the order; a second confirm answers it unchanged", async () => {
    const { token, orderId } = await placedOrder();
    const first = await confirm(orderId);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe("Order confirmed");
    expect(first.body.data._id).toBe(orderId);
    const confirmedAt = first.body.data.confirmedAt;
    expect(Date.now() - Date.parse(confirmedAt)).toBeLessThan(60_000);
    const row = await orderRow(orderId);
    expect(row).toMatchObject({ confirmedBy: adminId, confirmedByName: "Desk Admin" });
    // Who confirmed stays with the admins: the order's shape has no such field.
    expect(first.body.data).not.toHaveProperty("confirmedBy");

    const second = await confirm(orderId);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect((await client.api("GET", `/orders/${orderId}`, { token })).body.data.confirmedAt).toBe(confirmedAt);
    // The API's status change does not ask about the confirmation either way.
    expect((await setStatus(orderId, { status: "Shipped" })).status).toBe(200);
  });

  it("refuses an order that is no longer Pending with 409, even one confirmed before", async () => {
    for (const status of ["Shipped", "Delivered", "Cancelled"]) {
      const { orderId } = await placedOrder();
      await setStatus(orderId, { status });
      const response = await confirm(orderId);
      expect(response.status, status).toBe(409);
      expect(response.body).toEqual({
        success: false,
        code: "NOT_PENDING",
        message: "Only pending orders can be confirmed",
      });
      expect((await orderRow(orderId)).confirmedAt).toBeNull();
    }
    const { orderId } = await placedOrder();
    await confirm(orderId);
    await setStatus(orderId, { status: "Shipped" });
    expect((await confirm(orderId)).status).toBe(409);
  });

  it("answers 404 'Order not found' for an unknown or malformed id", async () => {
    for (const id of [missingId, "not-an-id"]) {
      const response = await confirm(id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Order not found" });
    }
  });

  it("leaves GET /orders as it was: no search, dates or confirmation filter there", async () => {
    const { orderId } = await placedOrder();
    const listed = await client.api("GET", `/orders?search=nobody&from=2000-01-01&to=2000-01-02&status=`, {
      token: adminToken,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((order: { _id: string }) => order._id)).toEqual([orderId]);
    const unconfirmed = await client.api("GET", "/orders?status=Unconfirmed", { token: adminToken });
    expect(unconfirmed.status).toBe(400);
  });
});
