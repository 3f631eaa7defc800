/**
 * The texts of an order paid in advance (docs/product.md, "Paying in advance"), against local
 * fakes of the WhatsApp Cloud API and Twilio (tests/support/messaging-fakes.ts): on placing (the
 * amount, the account, the order number to quote, the hours to pay) instead of the
 * cash-on-delivery confirmation, on the payment verified, on its rejection with the reason, and
 * on the order cancelled unpaid, each in the order's language and written with the change (a
 * refused change writes none).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { FakeTwilio, FakeWhatsAppCloud, messagingSettings } from "../support/messaging-fakes";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";

const whatsapp = new FakeWhatsAppCloud();
const twilio = new FakeTwilio();
const clock = new TestClock();
let server: TestServer;
let client: TestClient;
let adminToken: string;

const address = { street: "9 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  await whatsapp.start();
  await twilio.start();
  server = await startTestServer(
    { ...messagingSettings(whatsapp, twilio), PUBLIC_URL: "https://waqt.example" },
    { mail: { pollMs: 50 }, clock: clock.now },
  );
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@texts.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@texts.test", "adminpass1");
  const set = await client.api("PUT", "/settings/orders", {
    body: {
      bankAccountTitle: "Waqt Watches (Pvt) Ltd",
      bankName: "Meezan Bank",
      iban: "PK36MEZN0001234567890123",
      raastId: "0300-7654321",
      unpaidTransferHours: 48,
    },
    token: adminToken,
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await whatsapp.stop();
  await twilio.stop();
});
beforeEach(() => {
  whatsapp.requests.length = 0;
  twilio.requests.length = 0;
  whatsapp.mode = { kind: "ok" };
  twilio.mode = { kind: "ok" };
  clock.set("2026-12-01T09:00:00Z");
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let shoppers = 0;
/** A bank-transfer order of Rs. 20,000 placed by a new shopper with a mobile number. */
async function transferOrder(body: Record<string, unknown> = {}) {
  shoppers += 1;
  const email = `payer${shoppers}@texts.test`;
  await insertUser(server, { name: `Ayesha ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Texted Watch ${shoppers}`, price: 10_000, stock: 5 }]);
  await client.api("POST", "/cart", { body: { productId, quantity: 2 }, token });
  const placed = await client.api("POST", "/orders", {
    body: { address, phone: "0345-1234567", paymentMethod: "Bank Transfer", ...body },
    token,
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  return { orderId, token, number: `#${orderId.slice(-8).toUpperCase()}`, createdAt: placed.body.data.createdAt };
}

/** The order's texts once none is waiting to be sent (the fake answers before the store records it). */
const textsOf = async (orderId: string) => {
  await until(
    async () =>
      (await server.database.db("order_messages").where({ order_id: orderId, status: "queued" })).length === 0,
    "the order's texts sent",
  );
  return queuedTexts(orderId);
};
const queuedTexts = (orderId: string) =>
  server.database
    .db("order_messages")
    .where({ order_id: orderId })
    .orderBy("created_at")
    .select("channel", "kind", "language", "status");

/** The WhatsApp templates sent to the order's phone, by name, with their body parameters. */
async function templatesSent(count: number) {
  await until(() => whatsapp.sent.length >= count, `${count} WhatsApp messages`);
  return whatsapp.sent.map((message) => ({
    to: message.to as string,
    name: message.template.name as string,
    language: message.template.language.code as string,
    parameters: message.template.components
      .find((component: { type: string }) => component.type === "body")
      .parameters.map((parameter: { text: string }) => parameter.text) as string[],
    buttons: message.template.components.filter((component: { type: string }) => component.type === "button").length,
  }));
}

describe("a bank-transfer order's texts", () => {
  it("tell what to pay, where and by when on placing (no cash-on-delivery confirmation), then the payment verified", async () => {
    const { orderId, token, number } = await transferOrder({ language: "en" });
    const [placed] = await templatesSent(1);
    expect(placed).toEqual({
      to: "923451234567",
      name: "order_payment_awaited",
      language: "en",
      // The customer's first name alone (textName): the account's is "Ayesha <n>".
      parameters: [
        "Ayesha",
        number,
        "Rs. 20,000",
        "Waqt Watches (Pvt) Ltd, Meezan Bank, IBAN PK36 MEZN 0001 2345 6789 0123, or Raast ID 0300-7654321",
        "within 48 hours",
        `https://waqt.example/my-orders/${orderId}`,
      ],
      buttons: 0,
    });
    expect(await textsOf(orderId)).toEqual([
      { channel: "whatsapp", kind: "payment-awaited", language: "en", status: "sent" },
    ]);

    // The customer's reference is for the store to check: it sends no text.
    expect(
      (await client.api("POST", `/orders/${orderId}/payment-reference`, { body: { reference: "TID 4411" }, token }))
        .status,
    ).toBe(200);
    const verified = await client.api("PATCH", `/orders/${orderId}/payment`, {
      body: { status: "verified" },
      token: adminToken,
    });
    expect(verified.status).toBe(200);
    const [, paid] = await templatesSent(2);
    expect(paid).toMatchObject({
      name: "order_payment_verified",
      language: "en",
      parameters: ["Ayesha", number, "Rs. 20,000", `https://waqt.example/my-orders/${orderId}`],
    });
    expect((await textsOf(orderId)).map((text) => text.kind)).toEqual(["payment-awaited", "payment-verified"]);
  });

  it("tell the customer why their reference was rejected, in Urdu, by SMS when WhatsApp refuses", async () => {
    const { orderId, token, number } = await transferOrder();
    await templatesSent(1);
    // Nothing to reject yet: the 409 writes no text.
    const early = await client.api("PATCH", `/orders/${orderId}/payment`, {
      body: { status: "rejected", reason: "No transfer found" },
      token: adminToken,
    });
    expect(early.status).toBe(409);
    expect((await textsOf(orderId)).map((text) => text.kind)).toEqual(["payment-awaited"]);

    await client.api("POST", `/orders/${orderId}/payment-reference`, { body: { reference: "TID 77" }, token });
    whatsapp.mode = { kind: "error", status: 400, code: 131026, message: "Message undeliverable" };
    const rejected = await client.api("PATCH", `/orders/${orderId}/payment`, {
      body: { status: "rejected", reason: "No transfer with TID 77 reached our account" },
      token: adminToken,
    });
    expect(rejected.status).toBe(200);
    await until(() => twilio.sent.length >= 1, "the SMS");
    expect(twilio.sent[0]!.To).toBe("+923451234567");
    expect(twilio.sent[0]!.Body).toBe(
      `Ayesha صاحب/صاحبہ، Waqt کے آرڈر ${number} کی ادائیگی کی تصدیق نہیں ہو سکی: ` +
        `No transfer with TID 77 reached our account۔ براہِ کرم دیکھ لیں کہ Rs. 20,000 ہمارے اکاؤنٹ میں بھیجے گئے ہیں، ` +
        `پھر ٹرانزیکشن ریفرنس دوبارہ یہاں بھیجیں: https://waqt.example/my-orders/${orderId}`,
    );
    expect(await textsOf(orderId)).toEqual([
      { channel: "whatsapp", kind: "payment-awaited", language: "ur", status: "sent" },
      { channel: "whatsapp", kind: "payment-rejected", language: "ur", status: "failed" },
      { channel: "sms", kind: "payment-rejected", language: "ur", status: "sent" },
    ]);
  });

  it("tell the customer their unpaid order was cancelled when the sweep cancels it", async () => {
    const { orderId, number, createdAt } = await transferOrder({ language: "en" });
    await templatesSent(1);
    clock.set(new Date(new Date(createdAt).getTime() + 48 * 60 * 60 * 1000 + 1000).toISOString());
    expect((await server.services.advancePayment.cancelUnpaid()).cancelled).toBeGreaterThanOrEqual(1);
    expect((await textsOf(orderId)).map((text) => text.kind)).toEqual(["payment-awaited", "not-paid"]);
    const texts = await templatesSent(2);
    expect(texts.find((text) => text.name === "order_not_paid" && text.parameters[1] === number)).toEqual({
      to: "923451234567",
      name: "order_not_paid",
      language: "en",
      parameters: ["Ayesha", number, "Rs. 20,000", `https://waqt.example/my-orders/${orderId}`],
      buttons: 0,
    });
  });
});
