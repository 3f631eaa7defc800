/**
 * The customer's text about a delivery attempt (server/flows/courier-sync.ts queues it,
 * server/flows/order-texts.ts sends it), against local fakes of the couriers
 * (tests/support/courier-fakes/) and of WhatsApp and Twilio (tests/support/messaging-fakes.ts):
 * an attempt with a reason reported by the sync is texted to the order's phone in its language,
 * WhatsApp first then SMS; an order without a phone, or a store without WhatsApp and SMS, gets
 * the mail only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLeopards, FakePostex } from "../support/courier-fakes";
import { CourierStore, type Courier } from "../support/courier-store";
import { FakeTwilio, FakeWhatsAppCloud, messagingSettings } from "../support/messaging-fakes";
import type { TestServer } from "../support/test-server";

const whatsapp = new FakeWhatsAppCloud();
const twilio = new FakeTwilio();
let store: CourierStore;
let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
/** The same database and couriers, without WhatsApp and SMS. */
let silent: TestServer;

beforeAll(async () => {
  await whatsapp.start();
  await twilio.start();
  store = await CourierStore.start({
    settings: { ...messagingSettings(whatsapp, twilio), PUBLIC_URL: "https://waqt.example" },
    server: { mail: { pollMs: 50 } },
    adminEmail: "admin@attempt.test",
    customer: { name: "Sana Malik", email: "sana@attempt.test" },
  });
  ({ postex, leopards, server } = store);
  silent = await store.sameDatabase(store.courierSettings);
});
afterAll(async () => {
  await store?.close();
  await whatsapp.stop();
  await twilio.stop();
});
beforeEach(async () => {
  whatsapp.mode = { kind: "ok" };
  twilio.mode = { kind: "ok" };
  // No parcel of an earlier test is followed again.
  await store.forgetEarlierParcels();
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A confirmed cash-on-delivery order to 0333-1112233, booked with the courier and picked up by it. */
async function shippedOrder(
  courier: Courier,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; trackingNumber: string; number: string }> {
  const { id, trackingNumber } = await store.pickedUpOrder(courier, { price: 7000, phone: "0333-1112233", fields });
  return { id, trackingNumber, number: `#${id.slice(-8).toUpperCase()}` };
}

const sync = (on: TestServer = server) => store.sync(on);
const attemptTexts = (orderId: string) =>
  server.database
    .db("order_messages")
    .where({ order_id: orderId, kind: "delivery-attempt" })
    .orderBy("created_at")
    .select("channel", "language", "status", "error");
const whatsappAttempts = () => whatsapp.sent.filter((message) => message.template.name === "order_delivery_attempt");

describe("the text of a delivery attempt", () => {
  it("is queued by the sync's attempt and sent by WhatsApp in the order's language, with the courier's reason", async () => {
    const { id, trackingNumber, number } = await shippedOrder("postex", { language: "en" });
    postex.report(trackingNumber, {
      text: "Attempt Made: Customer not available",
      code: "0013",
      reason: "Customer not available",
      at: new Date("2026-11-21T11:00:00Z"),
    });
    const before = whatsappAttempts().length;
    expect((await sync()).body.data).toMatchObject({ shipped: 1, attempts: 1 });
    await until(() => whatsappAttempts().length > before, "the attempt's WhatsApp message");
    const message = whatsappAttempts().at(-1)!;
    expect(message.to).toBe("923331112233");
    expect(message.template.language.code).toBe("en");
    const body = message.template.components.find((component: { type: string }) => component.type === "body");
    // The customer's first name alone (textName).
    expect(body.parameters.map((parameter: { text: string }) => parameter.text)).toEqual([
      "Sana",
      number,
      "PostEx",
      "Customer not available",
      trackingNumber,
      `https://waqt.example/my-orders/${id}`,
    ]);
    expect(message.template.components.filter((component: { type: string }) => component.type === "button")).toEqual(
      [],
    );
    await until(async () => (await attemptTexts(id))[0]?.status === "sent", "the text recorded sent");
    expect(await attemptTexts(id)).toEqual([{ channel: "whatsapp", language: "en", status: "sent", error: null }]);
    // The same attempt seen again by the next sync is not texted twice.
    await sync();
    expect(await attemptTexts(id)).toHaveLength(1);
  });

  it("goes by SMS in Urdu when WhatsApp refuses it", async () => {
    const { id, trackingNumber } = await shippedOrder("leopards", { language: "ur" });
    whatsapp.mode = { kind: "error", status: 400, code: 131026, message: "Message undeliverable" };
    leopards.report(trackingNumber, {
      text: "Pending",
      reason: "Address not found",
      at: new Date("2026-11-21T12:00:00Z"),
    });
    expect((await sync()).body.data).toMatchObject({ attempts: 1 });
    const attemptSms = () => twilio.sent.find((sms) => sms.Body?.includes(trackingNumber));
    await until(() => attemptSms() !== undefined, "the attempt's SMS");
    const sms = attemptSms()!;
    expect(sms.To).toBe("+923331112233");
    expect(sms.Body).toContain("Leopards");
    expect(sms.Body).toContain(trackingNumber);
    expect(sms.Body).toContain("Address not found");
    expect(sms.Body).toContain("کوریئر دوبارہ کوشش کرے گا");
    await until(
      async () => (await attemptTexts(id)).filter((text) => text.status !== "queued").length === 2,
      "the SMS recorded",
    );
    expect(await attemptTexts(id)).toMatchObject([
      { channel: "whatsapp", language: "ur", status: "failed" },
      { channel: "sms", language: "ur", status: "sent" },
    ]);
  });

  it("is not written for an order without a phone, nor by a store without WhatsApp and SMS: the mail tells", async () => {
    const withoutPhone = await shippedOrder("postex");
    // As an API client's order placed without one (the customer's own number would fill it in here).
    await server.database.db("orders").where({ id: withoutPhone.id }).update({ phone: null });
    postex.report(withoutPhone.trackingNumber, {
      text: "Attempt Made: House locked",
      code: "0013",
      reason: "House locked",
      at: new Date("2026-11-21T13:00:00Z"),
    });
    expect((await sync()).body.data).toMatchObject({ attempts: 1 });
    expect(await attemptTexts(withoutPhone.id)).toEqual([]);

    const unsent = await shippedOrder("postex");
    postex.report(unsent.trackingNumber, {
      text: "Attempt Made: Customer refused to pay",
      code: "0013",
      reason: "Customer asked to come tomorrow",
      at: new Date("2026-11-21T14:00:00Z"),
    });
    expect((await sync(silent)).body.data).toMatchObject({ attempts: 1 });
    expect(await attemptTexts(unsent.id)).toEqual([]);
    const mails = await server.database
      .db("outbox")
      .where({ kind: "order-delivery-attempt" })
      .whereRaw("subject LIKE ?", [`%${unsent.number}%`]);
    expect(mails).toHaveLength(1);
  });

  it("is not sent once the order was delivered before its turn came", async () => {
    const { id, trackingNumber } = await shippedOrder("postex");
    postex.report(trackingNumber, {
      text: "Attempt Made: Customer not available",
      code: "0013",
      reason: "Customer not available",
      at: new Date("2026-11-21T15:00:00Z"),
    });
    postex.report(trackingNumber, { text: "Delivered", code: "0005", at: new Date("2026-11-22T10:00:00Z") });
    expect((await sync()).body.data).toMatchObject({ attempts: 1, delivered: 1 });
    await until(async () => (await attemptTexts(id))[0]?.status === "failed", "the text given up");
    expect(await attemptTexts(id)).toEqual([
      {
        channel: "whatsapp",
        language: expect.any(String),
        status: "failed",
        error: "Not sent: the order was delivered or returned first",
      },
    ]);
  });
});
