/**
 * Following booked parcels (docs/api.md, "Couriers"; server/flows/courier-sync.ts) against local
 * fakes of PostEx and Leopards answering in each variant of docs/couriers.md: the order follows
 * the parcel (Shipped, Delivered, returned to sender), the customer hears of a failed attempt,
 * an event seen twice counts once, and a courier that is down is left alone for a while.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLeopards, FakePostex, FakeStatus } from "../support/courier-fakes";
import { CourierStore, type Courier } from "../support/courier-store";
import { apiToken } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, TestClock, type TestServer } from "../support/test-server";

let store: CourierStore;
let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
let bare: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;
const clock = new TestClock();

beforeAll(async () => {
  store = await CourierStore.start({
    server: { clock: clock.now },
    adminEmail: "admin@sync.test",
    customer: { name: "Ayesha Khan", email: "ayesha@sync.test" },
  });
  ({ postex, leopards, server, client, adminToken, customerToken } = store);
  bare = await store.sameDatabase();
});
afterAll(async () => {
  await store?.close();
});
beforeEach(async () => {
  store.couriersAnswer();
  clock.reset();
  // Each test starts with both couriers answering and no parcel of an earlier test to follow.
  await server.database.db("courier_sync_backoff").del();
  await store.forgetEarlierParcels();
});

/** A confirmed order of one watch at 3,000, booked with the courier; answers its id and tracking number. */
const bookedOrder = (courier: Courier) => store.bookedOrder(courier);
const sync = () => store.sync();
const order = async (id: string) => (await client.api("GET", `/orders/${id}`, { token: adminToken })).body.data;
const mailsOf = async (id: string, kind: string) =>
  server.database
    .db("outbox")
    .where({ kind })
    .whereRaw("subject LIKE ?", [`%#${id.slice(-8).toUpperCase()}%`]);
const at = (iso: string) => new Date(iso);

describe("following a PostEx parcel", () => {
  it("ships the order at pickup, mails an attempt's reason, and delivers it with deliveredAt and the mail", async () => {
    const { id, trackingNumber } = await bookedOrder("postex");
    postex.report(trackingNumber, { text: "At Merchant's Warehouse", code: "0001", at: at("2026-11-20T05:00:00Z") });
    let report = await sync();
    expect(report.status).toBe(200);
    expect(report.body.data.couriers).toContainEqual({
      courier: "PostEx",
      parcels: 1,
      events: 1,
      skippedUntil: null,
      error: null,
    });
    expect((await order(id)).status).toBe("Pending");

    postex.report(trackingNumber, { text: "At PostEx Warehouse", code: "0003", at: at("2026-11-20T09:00:00Z") });
    report = await sync();
    expect(report.body.data).toMatchObject({ shipped: 1, delivered: 0 });
    expect((await order(id)).status).toBe("Shipped");
    expect(await mailsOf(id, "order-shipped")).toHaveLength(1);

    postex.report(trackingNumber, {
      text: "Attempt Made: Customer not available",
      code: "0013",
      at: at("2026-11-21T07:30:00Z"),
    });
    report = await sync();
    expect(report.body.data).toMatchObject({ attempts: 1 });
    const [attemptMail] = await mailsOf(id, "order-delivery-attempt");
    expect(attemptMail).toMatchObject({ recipient: "ayesha@sync.test" });
    expect(attemptMail.textBody).toContain("PostEx tried to deliver your order");
    expect(attemptMail.textBody).toContain("could not: Customer not available.");

    postex.report(trackingNumber, { text: "Delivered to Customer", code: "0005", at: at("2026-11-22T10:00:00Z") });
    report = await sync();
    expect(report.body.data).toMatchObject({ delivered: 1 });
    const delivered = await order(id);
    expect(delivered.status).toBe("Delivered");
    expect(delivered.deliveredAt).not.toBeNull();
    expect(await mailsOf(id, "order-delivered")).toHaveLength(1);
    expect(delivered.shipment).toEqual({
      courier: "PostEx",
      trackingNumber,
      events: [
        {
          at: "2026-11-20T05:00:00.000Z",
          status: "booked",
          code: "0001",
          text: "At Merchant's Warehouse",
          reason: null,
        },
        {
          at: "2026-11-20T09:00:00.000Z",
          status: "picked-up",
          code: "0003",
          text: "At PostEx Warehouse",
          reason: null,
        },
        {
          at: "2026-11-21T07:30:00.000Z",
          status: "attempted",
          code: "0013",
          text: "Attempt Made: Customer not available",
          reason: "Customer not available",
        },
        {
          at: "2026-11-22T10:00:00.000Z",
          status: "delivered",
          code: "0005",
          text: "Delivered to Customer",
          reason: null,
        },
      ],
      // Asked at once about its cash, which PostEx has not paid over yet.
      payment: { paid: false, paidOn: null, receipt: null },
    });
  });

  it("adds nothing when it sees the same events again", async () => {
    const { id, trackingNumber } = await bookedOrder("postex");
    postex.report(trackingNumber, { text: "At PostEx Warehouse", code: "0003", at: at("2026-11-20T09:00:00Z") });
    await sync();
    const again = await sync();
    expect(again.body.data).toMatchObject({ shipped: 0 });
    expect(again.body.data.couriers).toContainEqual(expect.objectContaining({ courier: "PostEx", events: 0 }));
    expect((await order(id)).shipment.events).toHaveLength(1);
    expect(await mailsOf(id, "order-shipped")).toHaveLength(1);
  });

  for (const variant of [
    { timestamp: "updatedAt", historyOrder: "newest-first", statusCode: "number", booleans: "boolean" },
    { timestamp: "none", historyOrder: "newest-first", statusCode: "string", booleans: "string" },
  ] as const) {
    it(`passes a parcel first seen delivered through Shipped (history ${variant.timestamp}, ${variant.historyOrder})`, async () => {
      postex.variant = variant;
      try {
        const { id, trackingNumber } = await bookedOrder("postex");
        const statuses: FakeStatus[] = [
          { text: "At PostEx Warehouse", code: "0003", at: at("2026-11-20T09:00:00Z") },
          { text: "Enroute for Delivery", code: "0004", at: at("2026-11-21T04:00:00Z") },
          { text: "Delivered to Customer", code: "0005", at: at("2026-11-21T09:00:00Z") },
        ];
        for (const status of statuses) postex.report(trackingNumber, status);
        const report = await sync();
        expect(report.body.data).toMatchObject({ shipped: 1, delivered: 1 });
        const delivered = await order(id);
        expect(delivered.status).toBe("Delivered");
        expect(delivered.shipment.events.map((event: { status: string }) => event.status)).toEqual([
          "picked-up",
          "out-for-delivery",
          "delivered",
        ]);
        expect(await mailsOf(id, "order-shipped")).toHaveLength(1);
        expect(await mailsOf(id, "order-delivered")).toHaveLength(1);
        expect((await sync()).body.data.couriers).toContainEqual(
          expect.objectContaining({ courier: "PostEx", parcels: 0 }),
        );
      } finally {
        postex.variant = {
          statusCode: "string",
          timestamp: "modifiedDatetime",
          historyOrder: "oldest-first",
          booleans: "string",
        };
      }
    });
  }
});

describe("following a Leopards parcel", () => {
  for (const detailKeys of ["underscored", "guide-json", "datetime"] as const) {
    it(`marks the order returned to sender with the courier's reason (detail keys ${detailKeys})`, async () => {
      leopards.variant = { numbers: detailKeys === "guide-json" ? "string" : "number", detailKeys };
      try {
        const { id, trackingNumber } = await bookedOrder("leopards");
        leopards.report(trackingNumber, { text: "Shipment Picked", at: at("2026-11-20T09:00:00Z") });
        leopards.report(trackingNumber, { text: "Arrived at Station", at: at("2026-11-20T15:00:00Z") });
        leopards.report(trackingNumber, {
          text: "Pending",
          reason: "Customer refused to accept",
          at: at("2026-11-21T08:00:00Z"),
        });
        leopards.report(trackingNumber, {
          text: "Being Return",
          reason: "Refused by consignee",
          at: at("2026-11-22T08:00:00Z"),
        });
        const report = await sync();
        expect(report.body.data).toMatchObject({ shipped: 1, attempts: 1, returned: 1 });
        const returned = await order(id);
        expect(returned).toMatchObject({
          status: "Cancelled",
          outcome: { kind: "returned", reason: "Refused at the door" },
        });
        expect(
          returned.shipment.events.map((event: { status: string; reason: string | null }) => [
            event.status,
            event.reason,
          ]),
        ).toEqual([
          ["picked-up", null],
          ["in-transit", null],
          ["attempted", "Customer refused to accept"],
          ["returned", "Refused by consignee"],
        ]);
        expect(
          await server.database
            .db("outbox")
            .where({ kind: "order-returned-to-sender" })
            .whereRaw("subject LIKE ?", [`%#${id.slice(-8).toUpperCase()}%`]),
        ).toHaveLength(1);
        // The parcel on its way back is still followed, and its next event changes nothing more.
        leopards.report(trackingNumber, {
          text: "Returned to shipper",
          reason: "Refused by consignee",
          at: at("2026-11-23T08:00:00Z"),
        });
        expect((await sync()).body.data).toMatchObject({ returned: 0 });
        expect((await order(id)).shipment.events).toHaveLength(5);
      } finally {
        leopards.variant = { numbers: "number", detailKeys: "underscored" };
      }
    });
  }
});

describe("a courier that is down", () => {
  it("is left alone for growing intervals, kept in the database, while the other courier is still followed", async () => {
    const first = await bookedOrder("postex");
    const second = await bookedOrder("leopards");
    postex.mode = { kind: "down" };
    clock.set("2026-11-26T10:00:00Z");
    postex.report(first.trackingNumber, { text: "At PostEx Warehouse", code: "0003", at: at("2026-11-26T09:00:00Z") });
    leopards.report(second.trackingNumber, { text: "Shipment Picked", at: at("2026-11-26T09:00:00Z") });
    const report = await sync();
    expect(report.status).toBe(200);
    const [postexEntry] = report.body.data.couriers.filter((entry: { courier: string }) => entry.courier === "PostEx");
    expect(postexEntry.error).toMatch(/PostEx is not answering/);
    expect((await order(first.id)).status).toBe("Pending");
    expect((await order(second.id)).status).toBe("Shipped");
    // Twice the 30-minute interval after the first failure: asked neither now nor by another server.
    const postexCalls = postex.callsTo("/track-order").length;
    const skipped = await sync();
    expect(skipped.body.data.couriers).toContainEqual(
      expect.objectContaining({ courier: "PostEx", skippedUntil: "2026-11-26T11:00:00.000Z" }),
    );
    expect(postex.callsTo("/track-order")).toHaveLength(postexCalls);
    const kept = await server.database.db("courier_sync_backoff").where({ courier: "PostEx" }).first();
    expect(kept).toMatchObject({ failures: 1 });
    // Still down when asked again: four intervals this time.
    clock.set("2026-11-26T11:00:01Z");
    await sync();
    expect(await server.database.db("courier_sync_backoff").where({ courier: "PostEx" }).first()).toMatchObject({
      failures: 2,
      retryAt: new Date("2026-11-26T13:00:01Z"),
    });
    // Back up: followed again, and its failures forgotten.
    postex.mode = { kind: "ok" };
    clock.set("2026-11-26T13:00:02Z");
    expect((await sync()).body.data).toMatchObject({ shipped: 1 });
    expect((await order(first.id)).status).toBe("Shipped");
    expect(await server.database.db("courier_sync_backoff").where({ courier: "PostEx" }).first()).toMatchObject({
      failures: 0,
      retryAt: null,
    });
  });
});

describe("who may follow parcels, and stores without couriers", () => {
  it("lets only admins run the sync", async () => {
    expect((await client.api("POST", "/shipments/sync")).status).toBe(401);
    expect((await client.api("POST", "/shipments/sync", { token: customerToken })).status).toBe(403);
  });

  it("shows the customer their parcel's timeline, on the order and in their list", async () => {
    const { id, trackingNumber } = await bookedOrder("leopards");
    leopards.report(trackingNumber, { text: "Shipment Picked", at: at("2026-11-20T09:00:00Z") });
    await sync();
    const mine = await client.api("GET", `/orders/${id}`, { token: customerToken });
    expect(mine.body.data.shipment).toMatchObject({
      courier: "Leopards",
      trackingNumber,
      events: [{ at: "2026-11-20T09:00:00.000Z", status: "picked-up", text: "Shipment Picked" }],
    });
    const list = await client.api("GET", "/orders/me", { token: customerToken });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((mine: { _id: string }) => mine._id === id);
    expect(listed.shipment).toMatchObject({ courier: "Leopards", trackingNumber, events: [{ status: "picked-up" }] });
  });

  it("shows the timeline on the customer's and the admin's order pages, in Karachi's time, without JavaScript", async () => {
    const { id, trackingNumber } = await bookedOrder("leopards");
    leopards.report(trackingNumber, { text: "Shipment Picked", at: at("2026-11-20T09:00:00Z") });
    leopards.report(trackingNumber, { text: "Pending", reason: "House locked", at: at("2026-11-21T10:15:00Z") });
    await sync();
    const customer = await pageOf(
      await signedInClient(server.baseUrl, "ayesha@sync.test", "shopperpass1"),
      `/my-orders/${id}`,
    );
    const admin = await pageOf(
      await signedInClient(server.baseUrl, "admin@sync.test", "adminpass1"),
      `/admin/orders/${id}`,
    );
    for (const page of [customer, admin]) {
      expect(page.status).toBe(200);
      const text = page.text.replace(/<[^>]+>/g, "").replace(/&#x27;|&#39;/g, "'");
      expect(text).toContain("Parcel with Leopards");
      expect(text).toMatch(/20 Nov 2026, 2:00\s*pm Picked up \(Shipment Picked\)/);
      expect(text).toMatch(/21 Nov 2026, 3:15\s*pm Delivery attempted \(Pending\) Reason: House locked/);
    }
  });

  it("runs no sync job and asks no courier in a store without courier settings", async () => {
    const jobServer = await startTestServer({}, { shareDatabaseOf: server, mail: { pollMs: 50 } });
    try {
      const jobs = await server.database.db.raw(
        "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'courier-sync'",
      );
      expect(jobs.rows[0].n).toBe(0);
      const report = await new TestClient(bare.baseUrl).api("POST", "/shipments/sync", {
        token: await apiToken(new TestClient(bare.baseUrl), "admin@sync.test", "adminpass1"),
      });
      expect(report.body.data).toEqual({ couriers: [], shipped: 0, delivered: 0, returned: 0, attempts: 0, paid: 0 });
    } finally {
      await jobServer.close();
    }
  });

  it("follows parcels on the queue every COURIER_SYNC_MINUTES (a fraction here), each run adding the next", async () => {
    const { id, trackingNumber } = await bookedOrder("postex");
    postex.report(trackingNumber, { text: "At PostEx Warehouse", code: "0003", at: at("2026-11-20T09:00:00Z") });
    const jobServer = await startTestServer(
      { ...postex.settings(), ...leopards.settings(), COURIER_SYNC_MINUTES: "0.01" },
      { shareDatabaseOf: server, mail: { pollMs: 50 } },
    );
    try {
      const deadline = Date.now() + 10_000;
      while ((await order(id)).status !== "Shipped" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await order(id)).status).toBe("Shipped");
      // The chain's next run waits (or, caught mid-run, is about to): never more than one interval away.
      const { rows } = await server.database.db.raw(
        "SELECT run_at FROM graphile_worker.jobs WHERE task_identifier = 'courier-sync'",
      );
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const row of rows) expect(new Date(row.run_at).getTime() - Date.now()).toBeLessThanOrEqual(600);
    } finally {
      await jobServer.close();
    }
  });
});
