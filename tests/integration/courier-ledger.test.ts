/**
 * What each courier owes and holds (/admin/couriers and its CSV; server/modules/fulfilment/courier-ledger.ts),
 * against local fakes of PostEx and Leopards: parcels booked, followed and paid through the
 * sync, the figures hand-computed from the fixture below, the month counted in Pakistan, and the
 * page for admins only, in a store with a courier on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStatus } from "../support/courier-fakes";
import { CourierStore, type Courier } from "../support/courier-store";
import type { TestClient } from "../support/http-client";
import { signedInClient } from "../support/page-clients";
import { TestClock, type TestServer } from "../support/test-server";

let store: CourierStore;
let server: TestServer;
let bare: TestServer;
let client: TestClient;
let adminToken: string;
const clock = new TestClock();

const delivered = (at: string): FakeStatus => ({ text: "Delivered", code: "0005", at: new Date(at) });

beforeAll(async () => {
  // 08:00 on 1 December in Karachi (UTC+5): November is last month there, though not yet in UTC+0 at 19:00 the day before.
  clock.set("2026-12-01T03:00:00Z");
  store = await CourierStore.start({
    settings: { COURIER_LATE_DAYS: "5" },
    server: { clock: clock.now },
    adminEmail: "admin@ledger.test",
    customer: { name: "Hamza Ali", email: "hamza@ledger.test" },
  });
  ({ server, client, adminToken } = store);
  const { postex, leopards } = store;
  bare = await store.sameDatabase();

  // PostEx: delivered and not paid (4,200); paid on 1 December (5,100); paid at 02:30 on
  // 1 December in Karachi, written in UTC (2,600.50, collected as 2,601); paid on 30 November
  // (3,000: last month); picked up 11 days ago and still out (6,100: late); picked up 3 days ago (1,500).
  const unpaid = await bookedOrder("postex", 4200);
  postex.report(unpaid.trackingNumber, delivered("2026-11-24T10:00:00Z"));
  const paidToday = await bookedOrder("postex", 5100);
  postex.report(paidToday.trackingNumber, delivered("2026-11-25T10:00:00Z"));
  postex.pay(paidToday.trackingNumber, { date: "2026-12-01", receipt: "CPR-1" });
  const paidAtMidnight = await bookedOrder("postex", 2600.5);
  postex.report(paidAtMidnight.trackingNumber, delivered("2026-11-25T11:00:00Z"));
  postex.pay(paidAtMidnight.trackingNumber, { date: "2026-11-30T21:30:00Z", receipt: "CPR-2" });
  const paidLastMonth = await bookedOrder("postex", 3000);
  postex.report(paidLastMonth.trackingNumber, delivered("2026-11-26T10:00:00Z"));
  postex.pay(paidLastMonth.trackingNumber, { date: "2026-11-30", receipt: "CPR-3" });
  const late = await bookedOrder("postex", 6100, { at: new Date("2026-11-20T08:00:00Z") });
  postex.report(late.trackingNumber, {
    text: "Enroute for Delivery",
    code: "0004",
    at: new Date("2026-11-22T08:00:00Z"),
  });
  await bookedOrder("postex", 1500, { at: new Date("2026-11-28T08:00:00Z") });
  // Booked and never picked up: nothing is counted.
  await bookedOrder("postex", 700, null);

  // Leopards: one return on its way back (8,800, picked up long ago: a return, not late), one
  // received back in the store (999).
  const returning = await bookedOrder("leopards", 8800);
  leopards.report(returning.trackingNumber, { text: "Being Return", at: new Date("2026-11-23T08:00:00Z") });
  const back = await bookedOrder("leopards", 999);
  leopards.report(back.trackingNumber, { text: "Returned to shipper", at: new Date("2026-11-23T09:00:00Z") });

  expect((await sync()).body.data).toMatchObject({ delivered: 4, returned: 2, paid: 3 });
  const outcome = await client.api("POST", `/orders/${back.id}/received-back`, { token: adminToken });
  expect(outcome.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await store?.close();
});

let phones = 0;

/**
 * A confirmed cash-on-delivery order of one watch at `price`, booked with the courier, picked up
 * at `pickup` (on 20 November unless given) unless null.
 */
function bookedOrder(
  courier: Courier,
  price: number,
  pickup: { at?: Date } | null = {},
): Promise<{ id: string; trackingNumber: string }> {
  // A phone of its own: the COD rules allow two open orders a phone.
  const order = { price, phone: `0300-${9_800_000 + ++phones}` };
  return pickup ? store.pickedUpOrder(courier, order, pickup.at) : store.bookedOrder(courier, order);
}

const sync = () => store.sync();

describe("what each courier owes", () => {
  it("counts each courier's figures from its parcels: not paid, paid this month in Pakistan, late, returning", async () => {
    expect(await server.services.courierLedger.figures()).toEqual({
      month: "2026-12",
      lateDays: 5,
      rows: [
        {
          courier: "PostEx",
          unpaid: { count: 1, amount: 4200 },
          paidThisMonth: { count: 2, amount: 5100 + 2601 },
          late: { count: 1, amount: 6100 },
          returning: { count: 0, amount: 0 },
        },
        {
          courier: "Leopards",
          unpaid: { count: 0, amount: 0 },
          paidThisMonth: { count: 0, amount: 0 },
          late: { count: 0, amount: 0 },
          returning: { count: 1, amount: 8800 },
        },
      ],
    });
  });

  it("shows them on /admin/couriers, linked from the admin menu, without JavaScript", async () => {
    const admin = await signedInClient(server.baseUrl, "admin@ledger.test", "adminpass1");
    const response = await admin.get("/admin/couriers");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<a [^>]*href="\/admin\/couriers"[^>]*>Couriers<\/a>/);
    const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
      [...row[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((cell) =>
        cell[1]!.replace(/<[^>]+>|<!-- -->/g, ""),
      ),
    );
    expect(rows).toEqual([
      ["Courier", "Delivered, not paid yet", "Paid in December 2026", "Out over 5 days", "Returns on the way back"],
      ["PostEx", "1 parcel, Rs. 4,200", "2 parcels, Rs. 7,701", "1 parcel, Rs. 6,100", "0 parcels, Rs. 0"],
      ["Leopards", "0 parcels, Rs. 0", "0 parcels, Rs. 0", "0 parcels, Rs. 0", "1 parcel, Rs. 8,800"],
    ]);
    expect(html).toContain('href="/admin/couriers/export.csv"');
  });

  it("downloads the same rows as CSV, with the orders export's rules", async () => {
    const admin = await signedInClient(server.baseUrl, "admin@ledger.test", "adminpass1");
    const response = await admin.get("/admin/couriers/export.csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="couriers-2026-12.csv"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    // The byte order mark is read as bytes: text() takes it away.
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer())).toBe(
      "\uFEFF" +
        [
          'Courier,"Delivered, not paid (parcels)","Delivered, not paid (Rs)",Paid in 2026-12 (parcels),Paid in 2026-12 (Rs),' +
            "Out over 5 days (parcels),Out over 5 days (Rs),Returns on the way back (parcels),Returns on the way back (Rs)",
          "PostEx,1,4200,2,7701,1,6100,0,0",
          "Leopards,0,0,0,0,0,0,1,8800",
        ].join("\r\n") +
        "\r\n",
    );
  });

  it("is for admins only, and not in a store without a courier booked through its API", async () => {
    for (const path of ["/admin/couriers", "/admin/couriers/export.csv"]) {
      const guest = await fetch(`${server.baseUrl}${path}`, { redirect: "manual" });
      expect([302, 303], path).toContain(guest.status);
      expect(guest.headers.get("location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      const customer = await signedInClient(server.baseUrl, "hamza@ledger.test", "shopperpass1");
      const refused = await customer.get(path);
      expect([302, 303], path).toContain(refused.status);
      expect(refused.headers.get("location"), path).toBe("/");
      const bareAdmin = await signedInClient(bare.baseUrl, "admin@ledger.test", "adminpass1");
      expect((await bareAdmin.get(path)).status, path).toBe(404);
    }
    const bareAdmin = await signedInClient(bare.baseUrl, "admin@ledger.test", "adminpass1");
    const dashboard = await (await bareAdmin.get("/admin")).text();
    expect(dashboard).toContain('href="/admin/orders"');
    expect(dashboard).not.toContain('href="/admin/couriers"');
  });
});
