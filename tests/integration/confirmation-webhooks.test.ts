/**
 * The messaging providers' webhooks (docs/product.md, "Confirming an order"; SECURITY.md): Meta's
 * verification, WhatsApp button and written replies, Twilio's inbound SMS and status callbacks,
 * each in its provider's documented format and signed as the provider signs it. A bad or missing
 * signature changes nothing (401), a malformed body is a 400, an event delivered again changes
 * nothing, and a WhatsApp text reported failed goes by SMS.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loggableUrl } from "../../server/http/token-links";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { confirmationToken } from "../../server/modules/confirmation/order-confirmation";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts } from "../support/fixtures";
import {
  FakeTwilio,
  FakeWhatsAppCloud,
  messagingSettings,
  twilioSignature,
  WHATSAPP_VERIFY_TOKEN,
  whatsappSignature,
} from "../support/messaging-fakes";
import { startTestServer, type TestServer } from "../support/test-server";

const whatsapp = new FakeWhatsAppCloud();
const twilio = new FakeTwilio();
let server: TestServer;

beforeAll(async () => {
  await whatsapp.start();
  await twilio.start();
  server = await startTestServer(messagingSettings(whatsapp, twilio));
});
afterAll(async () => {
  await server?.close();
  await whatsapp.stop();
  await twilio.stop();
});
beforeEach(async () => {
  await server.database.db("orders").del();
  await server.database.db("order_message_replies").del();
});

let shoppers = 0;
const PHONE = "+923451234567";
async function placeOrder(phone = "0345-1234567") {
  shoppers += 1;
  const email = `webhook${shoppers}@confirmation.test`;
  await server.database
    .db("users")
    .insert({ name: `Sana ${shoppers}`, email, passwordHash: await hashPassword("shopperpass1", 4), phone: "" });
  const client = new TestClient(server.baseUrl);
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Citizen ${shoppers}`, price: 18000, stock: 5 }]);
  await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token });
  const placed = await client.api("POST", "/orders", {
    body: {
      address: { street: "3 Saddar", city: "Karachi", state: "Sindh", zipCode: "74400", country: "Pakistan" },
      phone,
    },
    token,
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body.data._id as string;
  return { orderId, productId: productId!, token: confirmationToken(server.config.sessionSecret, orderId) };
}

const orderOf = (id: string) => server.database.db("orders").where({ id }).first();
const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock")).stock;

/** Meta's notification of one message or status, as the Cloud API posts it. */
function notification(value: Record<string, unknown>) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: whatsapp.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}
const buttonReply = (id: string, payload: string, text = "Confirm") =>
  notification({
    contacts: [{ profile: { name: "Sana" }, wa_id: "923451234567" }],
    messages: [
      {
        context: { from: "15550783881", id: "wamid.original" },
        from: "923451234567",
        id,
        timestamp: "1764100000",
        type: "button",
        button: { payload, text },
      },
    ],
  });
const textReply = (id: string, body: string) =>
  notification({ messages: [{ from: "923451234567", id, timestamp: "1764100000", type: "text", text: { body } }] });
const statusReport = (id: string, status: string, errors?: unknown[]) =>
  notification({
    statuses: [{ id, status, timestamp: "1764100000", recipient_id: "923451234567", ...(errors ? { errors } : {}) }],
  });

async function postWhatsApp(body: unknown, signature?: string | null) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-hub-signature-256"] = signature ?? whatsappSignature(raw);
  return fetch(`${server.baseUrl}/webhooks/whatsapp`, { method: "POST", headers, body: raw });
}

async function postSms(
  on: TestServer,
  params: Record<string, string>,
  signedUrl?: string,
  authToken = twilio.authToken,
) {
  const url = signedUrl ?? `${on.baseUrl}/webhooks/sms`;
  return fetch(`${on.baseUrl}/webhooks/sms`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(url, params, authToken),
    },
    body: new URLSearchParams(params).toString(),
  });
}
const inboundSms = (sid: string, body: string, from = PHONE) => ({
  ToCountry: "US",
  SmsMessageSid: sid,
  NumMedia: "0",
  SmsSid: sid,
  SmsStatus: "received",
  Body: body,
  To: "+15005550006",
  NumSegments: "1",
  MessageSid: sid,
  AccountSid: twilio.accountSid,
  From: from,
  ApiVersion: "2010-04-01",
});

describe("GET /webhooks/whatsapp (Meta's verification)", () => {
  it("echoes hub.challenge for the verify token, refuses anything else (403), and never logs the token", async () => {
    const verify = (token: string) =>
      fetch(
        `${server.baseUrl}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`,
      );
    const accepted = await verify(WHATSAPP_VERIFY_TOKEN);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe("1158201444");
    expect((await verify("a-guess")).status).toBe(403);
    expect(
      loggableUrl(`/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${WHATSAPP_VERIFY_TOKEN}&hub.challenge=1`),
    ).not.toContain(WHATSAPP_VERIFY_TOKEN);
  });
});

describe("POST /webhooks/whatsapp", () => {
  it("confirms the order of a Confirm button (by the customer, channel whatsapp)", async () => {
    const { orderId, token } = await placeOrder();
    const response = await postWhatsApp(buttonReply("wamid.confirm1", `CONFIRM:${token}`));
    expect(response.status).toBe(200);
    expect(await orderOf(orderId)).toMatchObject({
      confirmationStatus: "confirmed",
      confirmationBy: "customer",
      confirmationChannel: "whatsapp",
      status: "Pending",
    });
    expect((await orderOf(orderId)).confirmedAt).not.toBeNull();
  });

  it("cancels the order of a Cancel button, giving its stock back", async () => {
    const { orderId, productId, token } = await placeOrder();
    expect(await stockOf(productId)).toBe(4);
    expect((await postWhatsApp(buttonReply("wamid.cancel1", `CANCEL:${token}`, "Cancel"))).status).toBe(200);
    expect(await orderOf(orderId)).toMatchObject({
      status: "Cancelled",
      confirmationStatus: "cancelled",
      confirmationChannel: "whatsapp",
    });
    expect(await stockOf(productId)).toBe(5);
  });

  it("refuses a bad or missing signature with 401 and changes nothing", async () => {
    const { orderId, token } = await placeOrder();
    const body = buttonReply("wamid.forged", `CANCEL:${token}`);
    expect((await postWhatsApp(body, whatsappSignature(JSON.stringify(body), "not-the-app-secret"))).status).toBe(401);
    expect((await postWhatsApp(body, null)).status).toBe(401);
    expect((await postWhatsApp(body, "sha256=")).status).toBe(401);
    expect(await orderOf(orderId)).toMatchObject({ status: "Pending", confirmationStatus: "pending" });
    expect(await server.database.db("order_message_replies")).toEqual([]);
  });

  it("answers 400 to a well-signed body that is not a notification, and 200 to events it ignores", async () => {
    expect((await postWhatsApp("{not json")).status).toBe(400);
    expect((await postWhatsApp({ entry: "everything" })).status).toBe(400);
    expect(
      (await postWhatsApp({ entry: [{ changes: [{ value: { messages: [{ from: "923451234567" }] } }] }] })).status,
    ).toBe(400);
    // An unknown order's button, and words the store does not read.
    expect((await postWhatsApp(buttonReply("wamid.unknown", `CONFIRM:${"Z".repeat(43)}`))).status).toBe(200);
    expect((await postWhatsApp(textReply("wamid.words", "kab tak aayega?"))).status).toBe(200);
    expect((await postWhatsApp(notification({ statuses: [] }))).status).toBe(200);
  });

  it("confirms the newest waiting order of a written reply, and changes nothing when the same message comes again", async () => {
    const first = await placeOrder();
    expect((await postWhatsApp(textReply("wamid.haan", "Haan"))).status).toBe(200);
    expect(await orderOf(first.orderId)).toMatchObject({
      confirmationStatus: "confirmed",
      confirmationChannel: "whatsapp",
    });
    const second = await placeOrder();
    // Delivered again: were it read again, it would confirm the second order.
    expect((await postWhatsApp(textReply("wamid.haan", "Haan"))).status).toBe(200);
    expect(await orderOf(second.orderId)).toMatchObject({ confirmationStatus: "pending" });
    expect(
      await server.database.db("order_message_replies").where({ provider_message_id: "wamid.haan" }),
    ).toMatchObject([{ orderId: first.orderId, action: "confirmed", body: "Haan" }]);
  });

  it("records the statuses of a text, only forward, and sends it by SMS once when WhatsApp reports it failed", async () => {
    const { orderId } = await placeOrder();
    const texts = () => server.database.db("order_messages").where({ order_id: orderId }).orderBy("created_at");
    await server.database
      .db("order_messages")
      .where({ order_id: orderId })
      .update({ status: "sent", provider_message_id: "wamid.text1" });
    expect((await postWhatsApp(statusReport("wamid.text1", "delivered"))).status).toBe(200);
    expect((await postWhatsApp(statusReport("wamid.text1", "read"))).status).toBe(200);
    expect((await postWhatsApp(statusReport("wamid.text1", "sent"))).status).toBe(200);
    const [read] = await texts();
    expect(read).toMatchObject({ status: "read" });
    expect(read.deliveredAt).not.toBeNull();
    expect(read.readAt).not.toBeNull();

    await server.database
      .db("order_messages")
      .where({ order_id: orderId })
      .update({ status: "sent", provider_message_id: "wamid.text2" });
    const failed = statusReport("wamid.text2", "failed", [{ code: 131026, title: "Message undeliverable" }]);
    expect((await postWhatsApp(failed)).status).toBe(200);
    expect((await postWhatsApp(failed)).status).toBe(200);
    expect(await texts()).toMatchObject([
      { channel: "whatsapp", status: "failed", error: "WhatsApp: Message undeliverable (code 131026)" },
      { channel: "sms", kind: "confirmation", status: "queued", phone: PHONE },
    ]);
  });
});

describe("POST /webhooks/sms", () => {
  it("confirms with 1, YES, haan or ہاں and cancels with 2, NO, nahi or نہیں the newest waiting order of that phone", async () => {
    for (const [index, word] of ["1", "YES", "haan", "ہاں"].entries()) {
      const { orderId } = await placeOrder();
      const response = await postSms(server, inboundSms(`SMconfirm${index}`, ` ${word} `));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/xml");
      expect(await orderOf(orderId)).toMatchObject({ confirmationStatus: "confirmed", confirmationChannel: "sms" });
    }
    for (const [index, word] of ["2", "NO", "nahi", "نہیں"].entries()) {
      const { orderId } = await placeOrder();
      expect((await postSms(server, inboundSms(`SMcancel${index}`, word))).status).toBe(200);
      expect(await orderOf(orderId)).toMatchObject({
        status: "Cancelled",
        confirmationStatus: "cancelled",
        confirmationChannel: "sms",
      });
    }
  });

  it("answers only the newest waiting order, ignores words it does not read and a message it has seen, and refuses a bad signature", async () => {
    const older = await placeOrder();
    const newer = await placeOrder();
    const other = await placeOrder("0300-7654321");
    expect((await postSms(server, inboundSms("SMwhat", "kal aa jayega?"))).status).toBe(200);
    expect((await postSms(server, inboundSms("SMforged", "2"), undefined, "not-the-auth-token")).status).toBe(401);
    expect((await postSms(server, inboundSms("SMyes", "1"))).status).toBe(200);
    expect((await postSms(server, inboundSms("SMyes", "1"))).status).toBe(200);
    expect(await orderOf(newer.orderId)).toMatchObject({ confirmationStatus: "confirmed" });
    expect(await orderOf(older.orderId)).toMatchObject({ confirmationStatus: "pending" });
    expect(await orderOf(other.orderId)).toMatchObject({ confirmationStatus: "pending" });
    expect((await postSms(server, { MessageSid: "SMnothing" })).status).toBe(200);
    expect((await postSms(server, { Body: "1" })).status).toBe(400);
  });

  it("records Twilio's status callbacks on the text", async () => {
    const { orderId } = await placeOrder();
    await server.database
      .db("order_messages")
      .where({ order_id: orderId })
      .update({ channel: "sms", status: "sent", provider_message_id: "SMstatus1" });
    expect(
      (await postSms(server, { MessageSid: "SMstatus1", MessageStatus: "delivered", AccountSid: twilio.accountSid }))
        .status,
    ).toBe(200);
    expect(await server.database.db("order_messages").where({ order_id: orderId }).first()).toMatchObject({
      status: "delivered",
    });
  });

  it("behind TRUST_PROXY, checks the signature against PUBLIC_URL's address, as Twilio was given it", async () => {
    const proxied = await startTestServer(
      { ...messagingSettings(whatsapp, twilio), TRUST_PROXY: "loopback", PUBLIC_URL: "https://shop.waqt.example" },
      { shareDatabaseOf: server },
    );
    try {
      const { orderId } = await placeOrder();
      expect((await postSms(proxied, inboundSms("SMproxied1", "1"))).status).toBe(401);
      expect(await orderOf(orderId)).toMatchObject({ confirmationStatus: "pending" });
      expect(
        (await postSms(proxied, inboundSms("SMproxied2", "1"), "https://shop.waqt.example/webhooks/sms")).status,
      ).toBe(200);
      expect(await orderOf(orderId)).toMatchObject({ confirmationStatus: "confirmed" });
    } finally {
      await proxied.close();
    }
  });
});
