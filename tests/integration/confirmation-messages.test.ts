/**
 * The confirmation's texts leaving the store (docs/product.md, "Confirming an order"), against
 * local fakes of the WhatsApp Cloud API and Twilio (tests/support/messaging-fakes.ts): the
 * message on placing, the SMS fallback, an outage delaying texts without losing any, two app
 * servers sending each text once, and the reminder and automatic cancel with an injected clock.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { confirmationToken } from "../../server/modules/confirmation/order-confirmation";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts } from "../support/fixtures";
import { FakeTwilio, FakeWhatsAppCloud, messagingSettings } from "../support/messaging-fakes";
import { startTestServer, TestClock, type TestServer } from "../support/test-server";

const whatsapp = new FakeWhatsAppCloud();
const twilio = new FakeTwilio();
const clock = new TestClock();
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  await whatsapp.start();
  await twilio.start();
  server = await startTestServer(
    {
      ...messagingSettings(whatsapp, twilio),
      PUBLIC_URL: "https://waqt.example",
      CONFIRM_REMIND_AFTER: "12",
      CONFIRM_CANCEL_AFTER: "48",
    },
    { mail: { pollMs: 50 }, clock: clock.now },
  );
  client = new TestClient(server.baseUrl);
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
  clock.reset();
});
afterEach(async () => {
  await server.database.db("orders").del();
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let shoppers = 0;
async function placeOrder(on: TestServer, body: Record<string, unknown> = {}) {
  shoppers += 1;
  const email = `texted${shoppers}@confirmation.test`;
  await on.database
    .db("users")
    .insert({ name: `Bilal ${shoppers}`, email, passwordHash: await hashPassword("shopperpass1", 4), phone: "" });
  const shopperClient = new TestClient(on.baseUrl);
  const token = await apiToken(shopperClient, email, "shopperpass1");
  const [productId] = await insertProducts(on, [{ name: `Seiko Presage ${shoppers}`, price: 32500, stock: 4 }]);
  await shopperClient.api("POST", "/cart", { body: { productId, quantity: 1 }, token });
  const placed = await shopperClient.api("POST", "/orders", {
    body: {
      address: { street: "7 Canal Road", city: "Faisalabad", state: "Punjab", zipCode: "38000", country: "Pakistan" },
      phone: "0345-1234567",
      ...body,
    },
    token,
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  return { orderId, productId: productId!, token: confirmationToken(on.config.sessionSecret, orderId) };
}

const textsOf = (orderId: string) =>
  server.database
    .db("order_messages")
    .where({ order_id: orderId })
    .orderBy("created_at")
    .select("channel", "kind", "status", "provider_message_id as providerMessageId", "attempts", "error");

describe("the confirmation text on placing an order", () => {
  it("goes by WhatsApp as the approved template with Confirm and Cancel buttons carrying the order's token", async () => {
    const { orderId, token } = await placeOrder(server);
    await until(async () => (await textsOf(orderId))[0]?.status === "sent", "the text sent");
    expect(whatsapp.requests).toHaveLength(1);
    expect(whatsapp.requests[0]!.headers.authorization).toBe(`Bearer ${whatsapp.token}`);
    const [message] = whatsapp.sent;
    expect(message).toMatchObject({
      messaging_product: "whatsapp",
      to: "923451234567",
      type: "template",
      template: { name: "order_confirmation", language: { code: "ur" } },
    });
    const [body, confirm, cancel] = message.template.components;
    expect(body.type).toBe("body");
    expect(body.parameters.map((parameter: { text: string }) => parameter.text)).toEqual([
      `Bilal ${shoppers}`,
      `#${orderId.slice(-8).toUpperCase()}`,
      "Rs. 32,500",
      `https://waqt.example/c/${token}`,
    ]);
    expect(confirm).toEqual({
      type: "button",
      sub_type: "quick_reply",
      index: "0",
      parameters: [{ type: "payload", payload: `CONFIRM:${token}` }],
    });
    expect(cancel).toEqual({
      type: "button",
      sub_type: "quick_reply",
      index: "1",
      parameters: [{ type: "payload", payload: `CANCEL:${token}` }],
    });
    const [text] = await textsOf(orderId);
    expect(text).toMatchObject({ channel: "whatsapp", kind: "confirmation", status: "sent" });
    expect(text!.providerMessageId).toMatch(/^wamid\./);
    expect(twilio.requests).toHaveLength(0);
  });

  it("goes by SMS at once when WhatsApp refuses the number (a 4xx other than 401 and 429)", async () => {
    whatsapp.mode = { kind: "error", status: 400, code: 131026, message: "Message Undeliverable." };
    const { orderId, token } = await placeOrder(server, { language: "en" });
    await until(
      async () => (await textsOf(orderId)).some((text) => text.channel === "sms" && text.status === "sent"),
      "the SMS sent",
    );
    const texts = await textsOf(orderId);
    expect(texts).toMatchObject([
      { channel: "whatsapp", status: "failed", error: "WhatsApp 400: Message Undeliverable. (code 131026)" },
      { channel: "sms", status: "sent" },
    ]);
    expect(texts[1]!.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio.sent).toEqual([
      {
        To: "+923451234567",
        From: "+15005550006",
        // Twilio reports the text's progress to the store's webhook.
        StatusCallback: "https://waqt.example/webhooks/sms",
        Body: expect.stringContaining(`reply 1 to confirm or 2 to cancel, or open https://waqt.example/c/${token}`),
      },
    ]);
    expect(twilio.sent[0]!.Body).toContain("Rs. 32,500");
  });

  it("waits out an outage of WhatsApp (503, then 429) and sends it once it is back, nothing lost", async () => {
    whatsapp.mode = { kind: "down" };
    const { orderId } = await placeOrder(server);
    await until(() => whatsapp.requests.length >= 1, "a first try");
    await until(async () => (await textsOf(orderId))[0]?.attempts === 1, "the failed try recorded");
    expect(await textsOf(orderId)).toMatchObject([
      { status: "queued", error: expect.stringContaining("WhatsApp 503") },
    ]);
    whatsapp.mode = { kind: "error", status: 429, code: 130429, message: "Rate limit hit" };
    await until(() => whatsapp.requests.length >= 2, "a second try (after the queue's backoff)");
    expect(await textsOf(orderId)).toMatchObject([{ status: "queued" }]);
    whatsapp.mode = { kind: "ok" };
    await until(async () => (await textsOf(orderId))[0]?.status === "sent", "the text sent after the outage", 30_000);
    expect(await textsOf(orderId)).toHaveLength(1);
    expect(twilio.requests).toHaveLength(0);
  }, 60_000);
});

describe("two app servers", () => {
  it("send each text once", async () => {
    const second = await startTestServer(
      { ...messagingSettings(whatsapp, twilio), PUBLIC_URL: "https://waqt.example" },
      { shareDatabaseOf: server, mail: { pollMs: 50 } },
    );
    try {
      const orders = await Promise.all(
        Array.from({ length: 8 }, (_, index) => placeOrder(index % 2 ? second : server)),
      );
      const ids = orders.map((order) => order.orderId);
      await until(
        async () =>
          (await server.database.db("order_messages").whereIn("order_id", ids).where({ status: "sent" })).length === 8,
        "every text sent",
      );
      const recipients = whatsapp.sent.map((message) => message.template.components[0].parameters[1].text);
      expect(recipients.sort()).toEqual(ids.map((id) => `#${id.slice(-8).toUpperCase()}`).sort());
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe("the deadlines (an injected clock)", () => {
  it("remind once after CONFIRM_REMIND_AFTER hours, then cancel after CONFIRM_CANCEL_AFTER: stock back, reason, mail and text", async () => {
    const { orderId, productId } = await placeOrder(server);
    await until(async () => (await textsOf(orderId))[0]?.status === "sent", "the confirmation sent");
    const deadlines = () => server.services.orderConfirmation.runDeadlines();
    clock.advance(11.9 * 3600_000);
    expect(await deadlines()).toEqual({ reminded: 0, cancelled: 0 });
    clock.advance(0.2 * 3600_000);
    expect(await deadlines()).toEqual({ reminded: 1, cancelled: 0 });
    expect(await deadlines()).toEqual({ reminded: 0, cancelled: 0 });
    await until(
      async () => (await textsOf(orderId)).filter((text) => text.status === "sent").length === 2,
      "the reminder sent",
    );
    expect(whatsapp.sent[1].template.name).toBe("order_confirmation_reminder");
    expect(whatsapp.sent[1].template.components).toHaveLength(3);

    clock.advance(36 * 3600_000);
    expect(await deadlines()).toEqual({ reminded: 0, cancelled: 1 });
    const order = await server.database.db("orders").where({ id: orderId }).first();
    expect(order).toMatchObject({ status: "Cancelled", cancelReason: "Not confirmed", confirmationStatus: "pending" });
    expect((await server.database.db("products").where({ id: productId }).first("stock")).stock).toBe(4);
    const mail = await server.database
      .db("outbox")
      .where({ kind: "order-cancelled" })
      .where("text_body", "like", `%${orderId.slice(-8).toUpperCase()}%`)
      .first();
    expect(mail.textBody).toContain("because it was not confirmed in time");
    await until(
      async () => (await textsOf(orderId)).filter((text) => text.status === "sent").length === 3,
      "the cancellation sent",
    );
    expect(whatsapp.sent[2]).toMatchObject({ template: { name: "order_cancelled", language: { code: "ur" } } });
    expect(whatsapp.sent[2].template.components).toHaveLength(1);
  }, 60_000);

  it("leave answered orders alone", async () => {
    const { orderId, token } = await placeOrder(server);
    expect((await client.postForm(`/c/${token}`, { answer: "confirm" })).status).toBe(200);
    clock.advance(49 * 3600_000);
    expect(await server.services.orderConfirmation.runDeadlines()).toEqual({ reminded: 0, cancelled: 0 });
    expect((await server.database.db("orders").where({ id: orderId }).first()).status).toBe("Pending");
  });
});
