import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "./http-client";
import { apiToken, insertUser } from "./fixtures";
import { startTestServer, type TestServer } from "./test-server";

/**
 * The store the orders API's tests run on (tests/integration/orders-api-*.test.ts): an admin, a
 * customer and another customer with API tokens, and the orders, carts and products emptied before
 * each test. `withOrdersApiStore()` registers the hooks that set the bindings below.
 */
export let server: TestServer;
export let client: TestClient;
export let adminToken: string;
export let customerId: string;
export let customerToken: string;
export let otherId: string;
export let otherToken: string;

export function withOrdersApiStore() {
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
}

export const address = {
  street: "12 Mall Road",
  city: "Lahore",
  state: "Punjab",
  zipCode: "54000",
  country: "Pakistan",
};
export const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
export const missingId = "00000000-0000-4000-8000-000000000000";

/** A fresh customer with a token; a cheap bcrypt cost keeps the test quick (log-in accepts any cost). */
let shopperCount = 0;
export async function newShopper(): Promise<{ id: string; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@orders.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Shopper ${shopperCount}`, email, passwordHash: await hashPassword("shopperpass1", 4) })
    .returning("id");
  return { id: row.id, token: await apiToken(client, email, "shopperpass1") };
}

export async function addToCart(token: string, productId: string, quantity: number) {
  const response = await client.api("POST", "/cart", { body: { productId, quantity }, token });
  expect(response.status).toBe(200);
}

export const placeOrder = (token: string, headers: Record<string, string> = {}, body: unknown = { address }) =>
  client.api("POST", "/orders", { body, token, headers });

export const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
export const orderCount = async () => Number((await server.database.db("orders").count("* as count").first())!.count);
export const cartLines = async (token: string) =>
  (await client.api("GET", "/cart", { token })).body.data.cart.items.map(
    (line: { product: { _id: string }; quantity: number }) => [line.product._id, line.quantity],
  );

/** An order written straight into the database, with its creation time stated. */
export async function insertOrder(order: {
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
export const minute = (n: number) => new Date(Date.UTC(2026, 1, 1, 12, n));
export const ids = (response: { body: { data: { _id: string }[] } }) => response.body.data.map((order) => order._id);
