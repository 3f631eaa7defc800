/**
 * What each courier owes (server/flows/courier-sync.ts): for delivered cash-on-delivery parcels,
 * the courier's payment status (PostEx payment-status, Leopards getPaymentDetails), in each
 * variant of docs/couriers.md, read with the parcels' sync and shown on the order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLeopards, FakePostex } from "../support/courier-fakes";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  postex = await new FakePostex().start();
  leopards = await new FakeLeopards().start();
  server = await startTestServer({ ...postex.settings(), ...leopards.settings(), COURIER_TIMEOUT_SECONDS: "1" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Desk Admin", email: "admin@pay.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Bilal Ahmed", email: "bilal@pay.test", password: "shopperpass1" });
  adminToken = await apiToken(client, "admin@pay.test", "adminpass1");
  customerToken = await apiToken(client, "bilal@pay.test", "shopperpass1");
});
afterAll(async () => {
  await server?.close();
  await postex?.stop();
  await leopards?.stop();
});

/** A cash-on-delivery order booked with the courier and reported delivered by it. */
async function deliveredParcel(courier: "postex" | "leopards"): Promise<{ id: string; trackingNumber: string }> {
  const [productId] = await insertProducts(server, [{ name: "Orient Bambino", price: 4200, stock: 5 }]);
  await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token: customerToken });
  const placed = await client.api("POST", "/orders", {
    body: {
      address: { street: "4 Mall Road", city: "Karachi", state: "Sindh", zipCode: "74000", country: "Pakistan" },
      phone: "0321-7654321",
    },
    token: customerToken,
  });
  const id = placed.body.data._id as string;
  await client.api("POST", `/orders/${id}/confirm`, { token: adminToken });
  const booked = await client.api("POST", `/orders/${id}/shipment`, { body: { courier }, token: adminToken });
  const trackingNumber = booked.body.data.trackingNumber as string;
  const fake = courier === "postex" ? postex : leopards;
  fake.report(trackingNumber, { text: "Delivered", code: "0005", at: new Date("2026-11-24T10:00:00Z") });
  return { id, trackingNumber };
}

const sync = () => client.api("POST", "/shipments/sync", { token: adminToken });
const paymentOf = async (id: string) =>
  (await client.api("GET", `/orders/${id}`, { token: adminToken })).body.data.shipment.payment;

describe("what each courier owes for delivered cash-on-delivery parcels", () => {
  for (const booleans of ["string", "boolean"] as const) {
    it(`reads PostEx's payment status, not paid then paid with its date and CPR number (settle as ${booleans})`, async () => {
      postex.variant = { ...postex.variant, booleans };
      const { id, trackingNumber } = await deliveredParcel("postex");
      expect((await sync()).body.data).toMatchObject({ delivered: 1, paid: 0 });
      expect(await paymentOf(id)).toEqual({ paid: false, paidOn: null, receipt: null });
      postex.pay(trackingNumber, { date: "2026-11-26", receipt: "CPR-55021" });
      expect((await sync()).body.data).toMatchObject({ paid: 1 });
      expect(await paymentOf(id)).toEqual({ paid: true, paidOn: "2026-11-26", receipt: "CPR-55021" });
      // Paid parcels are not asked about again.
      const asked = postex.callsTo(`/payment-status/${trackingNumber}`).length;
      await sync();
      expect(postex.callsTo(`/payment-status/${trackingNumber}`)).toHaveLength(asked);
    });
  }

  for (const numbers of ["number", "string"] as const) {
    it(`reads Leopards' payment details: "Paid" with the cheque's number and date (status as a ${numbers})`, async () => {
      leopards.variant = { ...leopards.variant, numbers };
      const { id, trackingNumber } = await deliveredParcel("leopards");
      await sync();
      expect(await paymentOf(id)).toEqual({ paid: false, paidOn: null, receipt: null });
      leopards.pay(trackingNumber, { date: "2026-11-25", receipt: "CHQ-778812" });
      expect((await sync()).body.data).toMatchObject({ paid: 1 });
      expect(await paymentOf(id)).toEqual({ paid: true, paidOn: "2026-11-25", receipt: "CHQ-778812" });
    });
  }
});
