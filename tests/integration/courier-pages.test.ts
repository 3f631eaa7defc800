/**
 * The admin's pages for couriers booked through their APIs (docs/product.md, "Couriers through
 * their APIs"), as plain form posts against local fakes of PostEx and Leopards: a product's
 * weight, booking from an order's page and from the list, the airway bill, the barcode on the
 * packing slip and PostEx's load sheet; and nothing of it for customers, guests, or a store
 * without courier settings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_PDF, FakeLeopards, FakePostex } from "../support/courier-fakes";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
let bare: TestServer;
let api: TestClient;
let admin: TestClient;
let customer: TestClient;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  postex = await new FakePostex().start();
  leopards = await new FakeLeopards().start();
  server = await startTestServer({ ...postex.settings(), ...leopards.settings(), COURIER_TIMEOUT_SECONDS: "0.5" });
  bare = await startTestServer({}, { shareDatabaseOf: server });
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Desk Admin", email: "admin@cpages.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Ayesha Khan", email: "ayesha@cpages.test", password: "shopperpass1" });
  adminToken = await apiToken(api, "admin@cpages.test", "adminpass1");
  customerToken = await apiToken(api, "ayesha@cpages.test", "shopperpass1");
  admin = await signedInClient(server.baseUrl, "admin@cpages.test", "adminpass1");
  customer = await signedInClient(server.baseUrl, "ayesha@cpages.test", "shopperpass1");
});
afterAll(async () => {
  await bare?.close();
  await server?.close();
  await postex?.stop();
  await leopards?.stop();
});
beforeEach(() => {
  postex.mode = { kind: "ok" };
  leopards.mode = { kind: "ok" };
});

/** A confirmed Pending order placed through the API, of `lines` (a new watch each), to `city`. */
async function confirmedOrder(
  city = "Lahore",
  lines: { weightGrams?: number; quantity: number }[] = [{ quantity: 1 }],
) {
  for (const line of lines) {
    const [productId] = await insertProducts(server, [
      { name: "Seiko 5", price: 2250.5, stock: 10, ...(line.weightGrams ? { weightGrams: line.weightGrams } : {}) },
    ]);
    const added = await api.api("POST", "/cart", {
      body: { productId, quantity: line.quantity },
      token: customerToken,
    });
    expect(added.status).toBe(200);
  }
  const placed = await api.api("POST", "/orders", {
    body: {
      address: { street: "12 Canal Road", city, state: "Punjab", zipCode: "54000", country: "Pakistan" },
      phone: "0300-1234567",
    },
    token: customerToken,
  });
  expect(placed.status).toBe(201);
  const id = placed.body.data._id as string;
  expect((await api.api("POST", `/orders/${id}/confirm`, { token: adminToken })).status).toBe(200);
  return id;
}

const reference = (id: string) => id.slice(-8).toUpperCase();
const consignmentsOf = (fake: FakePostex | FakeLeopards, id: string) =>
  fake.consignments.filter((consignment) => consignment.reference === reference(id));
const orderRow = (id: string) => server.database.db("orders").where({ id }).first();

describe("a product's weight", () => {
  const product = {
    name: "Weighed Watch",
    brand: "Casio",
    description: "Made in a test",
    price: "4500",
    stock: "7",
    category: "Men",
    imageUrl: "/images/placeholder-watch.svg",
  };

  it("is a field of the product form, checked beside it, kept by the API, and bounded by the database", async () => {
    const refused = await admin.postForm("/admin/products/new", { ...product, weightGrams: "0" });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('id="field-weightGrams-error" role="alert">Weight must be at least 1 gram<');
    expect(refusedHtml).toMatch(/<input[^>]*name="weightGrams"[^>]*value="0"/);
    expect(await server.database.db("products").where({ name: "Weighed Watch" }).first()).toBeUndefined();

    expect((await admin.postForm("/admin/products/new", { ...product, weightGrams: "750" })).status).toBe(303);
    const { id: productId } = await server.database.db("products").where({ name: "Weighed Watch" }).first();
    const shown = await api.api("GET", `/products/${productId}`);
    expect(shown.body.data.weightGrams).toBe(750);
    const edit = await pageOf(admin, `/admin/products/${productId}/edit`);
    expect(edit.text).toMatch(/<input[^>]*name="weightGrams"[^>]*value="750"/);
    // A PUT without it keeps it; the API's limits are the form's.
    const { _id, createdAt, updatedAt, rating, reviewCount, images, imagePlaceholder, weightGrams, ...rest } =
      shown.body.data;
    void [_id, createdAt, updatedAt, rating, reviewCount, images, imagePlaceholder, weightGrams];
    const kept = await api.api("PUT", `/products/${productId}`, { body: rest, token: adminToken });
    expect(kept.body.data.weightGrams).toBe(750);
    const tooHeavy = await api.api("PUT", `/products/${productId}`, {
      body: { ...rest, weightGrams: 30_001 },
      token: adminToken,
    });
    expect(tooHeavy.body.errors).toEqual([{ field: "weightGrams", message: "Weight must be at most 30000 grams" }]);
    await expect(server.database.db("products").where({ id: productId }).update({ weightGrams: 0 })).rejects.toThrow(
      /products_weight_grams_valid/,
    );
  });

  it("books each line's weight times its quantity, and 500 g a piece for a watch without one", async () => {
    const id = await confirmedOrder("Lahore", [{ weightGrams: 750, quantity: 2 }, { quantity: 1 }]);
    const booked = await api.api("POST", `/orders/${id}/shipment`, {
      body: { courier: "leopards" },
      token: adminToken,
    });
    expect(booked.status).toBe(200);
    expect(consignmentsOf(leopards, id)[0]!.booking).toMatchObject({
      booked_packet_weight: 2000,
      booked_packet_no_piece: 3,
    });
    const other = await confirmedOrder("Karachi", [{ weightGrams: 120, quantity: 3 }]);
    expect(
      (await api.api("POST", `/orders/${other}/shipment`, { body: { courier: "postex" }, token: adminToken })).status,
    ).toBe(200);
    expect(consignmentsOf(postex, other)[0]!.booking).toMatchObject({ bookingWeight: 0.36, items: 3 });
  });
});
