import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_PDF,
  FakeLeopards,
  FakePostex,
  LEOPARDS_KEY,
  LEOPARDS_PASSWORD,
  POSTEX_TOKEN,
  type LeopardsVariant,
  type PostexVariant,
} from "../../../tests/support/courier-fakes";
import type { CourierBooking, ParcelToBook } from "./courier-provider.shared";
import { CourierRefused, CourierUnreachable } from "./courier-http";
import { leopardsBooking } from "./leopards";
import { postexBooking } from "./postex";

const TIMEOUT_MS = 300;
let postexFake: FakePostex;
let leopardsFake: FakeLeopards;
let postex: CourierBooking;
let leopards: CourierBooking;

beforeAll(async () => {
  postexFake = await new FakePostex().start();
  leopardsFake = await new FakeLeopards().start();
  postex = postexBooking(
    { apiUrl: postexFake.apiUrl, token: POSTEX_TOKEN, pickupAddressCode: "001" },
    { timeoutMs: TIMEOUT_MS },
  );
  leopards = leopardsBooking(
    { apiUrl: leopardsFake.apiUrl, apiKey: LEOPARDS_KEY, apiPassword: LEOPARDS_PASSWORD, originCity: "self" },
    { timeoutMs: TIMEOUT_MS },
  );
});
afterAll(async () => {
  await postexFake.stop();
  await leopardsFake.stop();
});
beforeEach(() => {
  postexFake.mode = { kind: "ok" };
  leopardsFake.mode = { kind: "ok" };
});

const parcel = (reference: string, city: { id: string | null; name: string }): ParcelToBook => ({
  reference,
  receiver: {
    name: "Ayesha Khan",
    phone: "+923001234567",
    email: "ayesha@example.pk",
    address: "12 Canal Road",
    city,
  },
  pieces: 2,
  weightGrams: 1000,
  collectAmount: 45_001,
  description: "2 watches",
});

describe("the PostEx client", () => {
  it("lists delivery cities, books with the order's reference and reads the airway bill's PDF", async () => {
    for (const booleans of ["string", "boolean"] as const) {
      postexFake.variant = { ...postexFake.variant, booleans };
      expect((await postex.cities()).map((city) => city.name)).toContain("Lahore");
    }
    for (const statusCode of ["string", "number"] as const) {
      postexFake.variant = { ...postexFake.variant, statusCode };
      const booked = await postex.book(
        parcel(`PX00${statusCode === "string" ? "1" : "2"}`, { id: null, name: "Lahore" }),
      );
      expect(booked.trackingNumber).toMatch(/^\d{14}$/);
      expect(await postex.airwayBill({ ...booked })).toEqual({ kind: "pdf", body: FAKE_PDF });
    }
    expect(postexFake.callsTo("/v3/create-order")[0]!.body).toMatchObject({
      orderRefNumber: "PX001",
      invoicePayment: "45001",
      customerPhone: "03001234567",
      cityName: "Lahore",
      items: 2,
      pickupAddressCode: "001",
      orderType: "Normal",
    });
  });

  it("says PostEx's refusal in its words, and a slow or down PostEx as not answering", async () => {
    await expect(postex.book(parcel("PX003", { id: null, name: "Atlantis" }))).rejects.toEqual(
      new CourierRefused("PostEx", "PostEx: INVALID CITY NAME"),
    );
    postexFake.mode = { kind: "slow", ms: TIMEOUT_MS * 3 };
    const before = postexFake.consignments.length;
    await expect(postex.book(parcel("PX004", { id: null, name: "Karachi" }))).rejects.toBeInstanceOf(
      CourierUnreachable,
    );
    expect(postexFake.consignments.length).toBe(before + 1);
    postexFake.mode = { kind: "down" };
    await expect(postex.findBooked("PX004", new Date())).rejects.toBeInstanceOf(CourierUnreachable);
    postexFake.mode = { kind: "ok" };
    const found = await postex.findBooked("PX004", new Date());
    expect(found?.trackingNumber).toBe(postexFake.consignments.at(-1)!.trackingNumber);
    expect(await postex.findBooked("PX999", new Date())).toBeNull();
  });

  it("reads every history variant as the same events, oldest first, and cancels before pickup", async () => {
    const { trackingNumber } = await postex.book(parcel("PX005", { id: null, name: "Lahore" }));
    const cancelled = await postex.book(parcel("PX006", { id: null, name: "Lahore" }));
    await postex.cancel(cancelled.trackingNumber);
    expect(postexFake.find(cancelled.trackingNumber)!.cancelled).toBe(true);
    const start = Date.parse("2026-11-20T05:00:00Z");
    postexFake.report(trackingNumber, { text: "Picked By PostEx", code: "0003", at: new Date(start) });
    postexFake.report(trackingNumber, {
      text: "Arrived at Transit Hub SGR",
      code: "0035",
      at: new Date(start + 3600_000),
    });
    postexFake.report(trackingNumber, {
      text: "Attempt Made: Customer not available",
      code: "0013",
      at: new Date(start + 7200_000),
    });
    postexFake.report(trackingNumber, { text: "Delivered to Customer", code: "0005", at: new Date(start + 9000_000) });
    await expect(postex.cancel(trackingNumber)).rejects.toBeInstanceOf(CourierRefused);
    const variants: PostexVariant[] = [
      { statusCode: "string", timestamp: "modifiedDatetime", historyOrder: "oldest-first", booleans: "string" },
      { statusCode: "number", timestamp: "updatedAt", historyOrder: "newest-first", booleans: "boolean" },
      { statusCode: "string", timestamp: "none", historyOrder: "newest-first", booleans: "string" },
    ];
    for (const variant of variants) {
      postexFake.variant = variant;
      const [track] = await postex.track([trackingNumber]);
      expect(
        track!.events.map((event) => event.stage),
        variant.timestamp,
      ).toEqual(["picked-up", "in-transit", "attempted", "delivered"]);
      expect(track!.events[2]).toMatchObject({ reason: "Customer not available", code: "0013" });
      expect(track!.events[0]!.at).toBe(variant.timestamp === "none" ? null : "2026-11-20T05:00:00.000Z");
    }
  });
});

describe("the Leopards client", () => {
  it("lists cities with their ids, books to a city id and keeps the slip link", async () => {
    for (const numbers of ["number", "string"] as const) {
      leopardsFake.variant = { ...leopardsFake.variant, numbers };
      expect(await leopards.cities()).toContainEqual({ id: "789", name: "Lahore" });
      const booked = await leopards.book(parcel(`LP00${numbers === "number" ? 1 : 2}`, { id: "475", name: "Karachi" }));
      expect(booked.trackingNumber).toMatch(/^LE\d+$/);
      expect(await leopards.airwayBill(booked)).toEqual({ kind: "link", url: booked.airwayBillUrl });
    }
    expect(leopardsFake.callsTo("bookPacket")[0]!.body).toMatchObject({
      booked_packet_weight: 1000,
      booked_packet_no_piece: 2,
      booked_packet_collect_amount: 45_001,
      booked_packet_order_id: "LP001",
      origin_city: "self",
      destination_city: "475",
      consignment_phone: "03001234567",
    });
  });

  it("says Leopards' refusal, field errors included, and finds a booking whose answer was lost", async () => {
    await expect(leopards.book(parcel("LP003", { id: "1", name: "Atlantis" }))).rejects.toEqual(
      new CourierRefused("Leopards", "Leopards: Invalid destination city"),
    );
    await expect(leopards.book({ ...parcel("LP004", { id: "789", name: "Lahore" }), description: "" })).rejects.toEqual(
      new CourierRefused("Leopards", "Leopards: special_instructions is required"),
    );
    leopardsFake.mode = { kind: "slow", ms: TIMEOUT_MS * 3 };
    await expect(leopards.book(parcel("LP005", { id: "789", name: "Lahore" }))).rejects.toBeInstanceOf(
      CourierUnreachable,
    );
    leopardsFake.mode = { kind: "ok" };
    expect((await leopards.findBooked("LP005", new Date()))?.trackingNumber).toBe(
      leopardsFake.consignments.at(-1)!.trackingNumber,
    );
    expect(await leopards.findBooked("LP404", new Date())).toBeNull();
    leopardsFake.mode = { kind: "down" };
    await expect(leopards.cities()).rejects.toBeInstanceOf(CourierUnreachable);
  });

  it("reads each tracking detail's keys as the same events, the reason on an attempt, and cancels", async () => {
    const { trackingNumber } = await leopards.book(parcel("LP006", { id: "789", name: "Lahore" }));
    const other = await leopards.book(parcel("LP007", { id: "789", name: "Lahore" }));
    await leopards.cancel(other.trackingNumber);
    const start = Date.parse("2026-11-20T05:00:00Z");
    leopardsFake.report(trackingNumber, { text: "Shipment Picked", at: new Date(start) });
    leopardsFake.report(trackingNumber, { text: "Dispatched", at: new Date(start + 3600_000) });
    leopardsFake.report(trackingNumber, {
      text: "Pending",
      reason: "Consignee not available",
      at: new Date(start + 7200_000),
    });
    leopardsFake.report(trackingNumber, { text: "Returned to shipper", at: new Date(start + 90_000_000) });
    for (const detailKeys of ["guide-json", "underscored", "datetime"] as LeopardsVariant["detailKeys"][]) {
      leopardsFake.variant = { numbers: "string", detailKeys };
      const tracks = await leopards.track([trackingNumber, other.trackingNumber]);
      const track = tracks.find((one) => one.trackingNumber === trackingNumber)!;
      expect(
        track.events.map((event) => event.stage),
        detailKeys,
      ).toEqual(["picked-up", "in-transit", "attempted", "returned"]);
      expect(track.events[2]).toMatchObject({ reason: "Consignee not available", text: "Pending" });
      expect(track.events[0]!.at).toBe("2026-11-20T05:00:00.000Z");
      expect(tracks.find((one) => one.trackingNumber === other.trackingNumber)!.events).toMatchObject([
        { stage: "cancelled", text: "Cancelled" },
      ]);
    }
  });
});
