/**
 * Booking parcels through the couriers' APIs (docs/api.md, "Couriers";
 * docs/decisions/2026-11-26-courier-booking.md), against local fakes of PostEx and Leopards:
 * exactly one consignment an order, whatever the courier, the network or the admins do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLeopards, FakePostex } from "../support/courier-fakes";
import { CourierStore } from "../support/courier-store";
import { apiToken } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import type { TestServer } from "../support/test-server";

const TIMEOUT_SECONDS = 0.5;
let store: CourierStore;
let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
let bare: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  store = await CourierStore.start({
    settings: { COURIER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
    adminEmail: "admin@couriers.test",
    customer: { name: "Ayesha Khan", email: "ayesha@couriers.test" },
  });
  ({ postex, leopards, server, client, adminToken, customerToken } = store);
  bare = await store.sameDatabase();
});
afterAll(async () => {
  await store?.close();
});
beforeEach(() => {
  store.couriersAnswer();
});

/** A confirmed Pending order of two watches at 2,250.50 each, to `city`. */
const confirmedOrder = (city = "Lahore") => store.confirmedOrder({ price: 2250.5, quantity: 2, city });

const book = (id: string, body: unknown, token = adminToken) =>
  client.api("POST", `/orders/${id}/shipment`, { body, token });
const reference = (id: string) => id.slice(-8).toUpperCase();
const consignmentsOf = (fake: FakePostex | FakeLeopards, id: string) =>
  fake.consignments.filter((consignment) => consignment.reference === reference(id));

describe("booking a parcel through a courier's API", () => {
  it("books with PostEx once: the order's number, the amount in whole rupees, and the order stays Pending", async () => {
    const id = await confirmedOrder();
    const booked = await book(id, { courier: "postex" });
    expect(booked.status).toBe(200);
    const [consignment] = consignmentsOf(postex, id);
    expect(booked.body.data).toMatchObject({
      status: "Pending",
      courier: "PostEx",
      trackingNumber: consignment!.trackingNumber,
    });
    expect(consignment!.booking).toMatchObject({
      orderRefNumber: reference(id),
      invoicePayment: "4501",
      customerPhone: "03001234567",
      cityName: "Lahore",
      items: 2,
    });
    const again = await book(id, { courier: "postex" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      `This order is booked with PostEx already (tracking number ${consignment!.trackingNumber})`,
    );
    expect(consignmentsOf(postex, id)).toHaveLength(1);
  });

  it("books with Leopards to the city the admin picks when the order's does not match, keeping the slip link", async () => {
    const id = await confirmedOrder("Lahore Cantt");
    const unmatched = await book(id, { courier: "leopards" });
    expect(unmatched.status).toBe(400);
    expect(unmatched.body.errors).toEqual([
      { field: "city", message: `"Lahore Cantt" is not one of the Leopards cities: choose the city from the list` },
    ]);
    expect(consignmentsOf(leopards, id)).toHaveLength(0);
    const picked = await book(id, { courier: "leopards", city: "  lahore " });
    expect(picked.status).toBe(200);
    const [consignment] = consignmentsOf(leopards, id);
    expect(consignment!.booking).toMatchObject({
      destination_city: "789",
      booked_packet_weight: 1000,
      booked_packet_collect_amount: 4501,
    });
    const slip = await server.database.db("shipments").where({ orderId: id }).first("airwayBillUrl");
    expect(slip.airwayBillUrl).toMatch(new RegExp(`/slips/${consignment!.trackingNumber}-`));
  });

  it("leaves the order as it was with the courier's words when it refuses, and books on the next try", async () => {
    const id = await confirmedOrder();
    postex.mode = { kind: "refuse", message: "INVALID CUSTOMER PHONE" };
    const refused = await book(id, { courier: "postex" });
    expect(refused.status).toBe(502);
    expect(refused.body.message).toBe("PostEx refused: PostEx: INVALID CUSTOMER PHONE");
    const order = await client.api("GET", `/orders/${id}`, { token: adminToken });
    expect(order.body.data).toMatchObject({ status: "Pending", courier: null, trackingNumber: null });
    postex.mode = { kind: "ok" };
    expect((await book(id, { courier: "postex" })).status).toBe(200);
    expect(consignmentsOf(postex, id)).toHaveLength(1);
  });

  it("after no answer, looks for the booking first and adopts it: no second consignment", async () => {
    const id = await confirmedOrder();
    postex.mode = { kind: "slow", ms: TIMEOUT_SECONDS * 3000 };
    const lost = await book(id, { courier: "postex" });
    expect(lost.status).toBe(502);
    expect(lost.body.message).toMatch(/did not answer .*the booking is in doubt\. Try again/);
    expect(consignmentsOf(postex, id)).toHaveLength(1);
    // The lookup cannot be made either: refused plainly, nothing booked again.
    postex.mode = { kind: "down" };
    const down = await book(id, { courier: "postex" });
    expect(down.status).toBe(502);
    expect(down.body.message).toMatch(/could not check whether the parcel was booked: nothing was booked again/);
    postex.mode = { kind: "ok" };
    const retried = await book(id, { courier: "postex" });
    expect(retried.status).toBe(200);
    expect(consignmentsOf(postex, id)).toHaveLength(1);
    expect(
      postex.callsTo("/v3/create-order").filter((call) => call.body.orderRefNumber === reference(id)),
    ).toHaveLength(1);
    expect(retried.body.data.trackingNumber).toBe(consignmentsOf(postex, id)[0]!.trackingNumber);
  });

  it("books once when two admins press at the same moment; the other sees the booking under way", async () => {
    const id = await confirmedOrder();
    postex.mode = { kind: "slow", ms: TIMEOUT_SECONDS * 400 };
    const answers = await Promise.all([book(id, { courier: "postex" }), book(id, { courier: "postex" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.message).toMatch(
      /A booking with PostEx is under way|booked with PostEx already/,
    );
    expect(consignmentsOf(postex, id)).toHaveLength(1);
  });

  it("cancels a booking before pickup through the courier's cancel call", async () => {
    const id = await confirmedOrder();
    expect((await book(id, { courier: "postex" })).status).toBe(200);
    const cancelled = await client.api("DELETE", `/orders/${id}/shipment`, { token: adminToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "Pending", courier: null, trackingNumber: null });
    expect(consignmentsOf(postex, id)[0]!.cancelled).toBe(true);
    expect((await client.api("DELETE", `/orders/${id}/shipment`, { token: adminToken })).status).toBe(409);
  });

  it("is for admins only, for confirmed orders, and not offered by a store without courier settings", async () => {
    const id = await confirmedOrder();
    expect((await book(id, { courier: "postex" }, customerToken)).status).toBe(403);
    expect((await book(id, { courier: "dhl" })).body.errors).toEqual([
      { field: "courier", message: 'Courier must be "postex" or "leopards"' },
    ]);
    const bareClient = new TestClient(bare.baseUrl);
    const bareAdmin = await apiToken(bareClient, "admin@couriers.test", "adminpass1");
    const off = await bareClient.api("POST", `/orders/${id}/shipment`, {
      body: { courier: "postex" },
      token: bareAdmin,
    });
    expect(off.status).toBe(400);
    expect(off.body.errors).toEqual([{ field: "courier", message: "postex is not a courier this store books with" }]);
    await server.database.db("orders").where({ id }).update({
      confirmedAt: null,
      confirmationStatus: "pending",
      confirmationBy: null,
      confirmationChannel: null,
      confirmationAt: null,
    });
    const unconfirmed = await book(id, { courier: "postex" });
    expect(unconfirmed.status).toBe(409);
    expect(consignmentsOf(postex, id)).toHaveLength(0);
  });

  it("books a bank-transfer order once its payment is verified, its payment confirming it, with nothing to collect", async () => {
    const account = { bankAccountTitle: "Waqt Watches", bankName: "HBL", iban: "PK36 HABB 0001 2345 6789 0123" };
    expect((await client.api("PUT", "/settings/orders", { body: account, token: adminToken })).status).toBe(200);
    const id = await store.placedOrder({ fields: { paymentMethod: "Bank Transfer" } });
    expect((await book(id, { courier: "postex" })).status).toBe(409);
    const verified = await client.api("PATCH", `/orders/${id}/payment`, {
      body: { status: "verified" },
      token: adminToken,
    });
    expect(verified.status).toBe(200);
    const booked = await book(id, { courier: "postex" });
    expect(booked.status).toBe(200);
    expect(consignmentsOf(postex, id)[0]!.booking).toMatchObject({
      orderRefNumber: reference(id),
      invoicePayment: "0",
    });
  });
});
