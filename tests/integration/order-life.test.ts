/**
 * One order life (docs/product.md, "An order's life"; server/modules/order-life/order-life.shared.ts):
 * the collisions issue 45 found between the order's status, payment, confirmation and parcel,
 * each as the customer, the merchant or an attacker met it, against the store's own fakes of
 * PostEx, the WhatsApp Cloud API and Twilio on one database. Each test names the finding it
 * guards.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CourierStore, ADMIN_PASSWORD } from "../support/courier-store";
import { insertProducts } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { FakeTwilio, FakeWhatsAppCloud, messagingSettings, sendTwilioSms } from "../support/messaging-fakes";
import { pageOf, signedInClient } from "../support/page-clients";
import { TestClock, type TestServer } from "../support/test-server";
import { until } from "../support/until";

const whatsapp = new FakeWhatsAppCloud();
const twilio = new FakeTwilio();
const clock = new TestClock();
let store: CourierStore;
let server: TestServer;
let client: TestClient;
/** A second app server on the same database without WhatsApp or SMS: its texts are files. */
let textless: TestServer;

const ACCOUNT = {
  bankAccountTitle: "Waqt Watches (Pvt) Ltd",
  bankName: "Meezan Bank",
  iban: "PK36MEZN0001234567890123",
  raastId: null,
  bankTransferDiscountPercent: null,
  unpaidTransferHours: null,
};

beforeAll(async () => {
  await whatsapp.start();
  await twilio.start();
  store = await CourierStore.start({
    settings: { ...messagingSettings(whatsapp, twilio), CONFIRM_REMIND_AFTER: "12", CONFIRM_CANCEL_AFTER: "48" },
    server: { clock: clock.now, mail: { pollMs: 50 } },
    adminEmail: "admin@life.test",
    customer: { name: "Sana Iqbal", email: "sana@life.test" },
  });
  ({ server, client } = store);
  textless = await store.sameDatabase();
  const set = await client.api("PUT", "/settings/orders", { body: ACCOUNT, token: store.adminToken });
  expect(set.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await store?.close();
  await whatsapp.stop();
  await twilio.stop();
});
beforeEach(async () => {
  clock.reset();
  store.couriersAnswer();
  // Earlier tests' orders are no longer waiting: each test's sweep and replies see its own.
  await server.database.db("orders").where({ status: "Pending" }).update({ status: "Delivered" });
});

const admin = (method: string, path: string, body?: unknown) =>
  client.api(method, path, { body, token: store.adminToken });
const customer = (method: string, path: string, body?: unknown) =>
  client.api(method, path, { body, token: store.customerToken });
const orderOf = async (id: string) => (await admin("GET", `/orders/${id}`)).body.data;
const stockOfOrder = async (id: string) => {
  const [item] = await server.database.db("order_items").where({ orderId: id });
  return (await server.database.db("products").where({ id: item.productId }).first("stock")).stock as number;
};
const confirmationSent = (id: string) =>
  until(
    async () =>
      (await server.database.db("order_messages").where({ order_id: id, kind: "confirmation", status: "sent" }))
        .length === 1,
    "the confirmation text sent",
  );

async function sms(from: string, body: string, sid: string) {
  expect(await sendTwilioSms(server.baseUrl, twilio, { from, body, sid })).toBe(200);
}

/** A bank-transfer order of the customer with its payment verified by the admin. */
async function paidTransferOrder(phone: string): Promise<string> {
  const id = await store.placedOrder({ phone, fields: { paymentMethod: "Bank Transfer" } });
  expect((await customer("POST", `/orders/${id}/payment-reference`, { reference: "TRX-55512" })).status).toBe(200);
  expect((await admin("PATCH", `/orders/${id}/payment`, { status: "verified" })).status).toBe(200);
  return id;
}

describe("a paid order is never cancelled as unconfirmed", () => {
  it("keeps a verified transfer through a written 'no' and the unconfirmed orders' sweep", async () => {
    const id = await paidTransferOrder("0333-4445556");
    await sms("+923334445556", "2", "SMpaid-no");
    await sms("+923334445556", "nahi", "SMpaid-nahi");
    clock.advance(49 * 3600_000);
    await server.services.orderConfirmation.runDeadlines();
    const order = await orderOf(id);
    expect(order).toMatchObject({
      status: "Pending",
      payment: { status: "verified" },
      readyToShip: true,
      amountDue: 0,
      collectOnDelivery: 0,
    });
    expect(order.actions.book).toBe(true);
  });

  it("does not sweep an order whose only confirmation went to a file, once texts are switched on", async () => {
    // Placed on the server without WhatsApp or SMS: its request is a file nobody was sent.
    const shopper = new TestClient(textless.baseUrl);
    const [productId] = await insertProducts(server, [{ name: "Casio Edifice", price: 3000, stock: 5 }]);
    expect(
      (await shopper.api("POST", "/cart", { body: { productId, quantity: 1 }, token: store.customerToken })).status,
    ).toBe(200);
    const placed = await shopper.api("POST", "/orders", {
      body: {
        address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
        phone: "0301-2223334",
      },
      token: store.customerToken,
    });
    expect(placed.status).toBe(201);
    clock.advance(49 * 3600_000);
    // The server with WhatsApp on runs the deadlines: the file is not a request the customer saw.
    expect(await server.services.orderConfirmation.runDeadlines()).toEqual({ reminded: 0, cancelled: 0 });
    expect((await orderOf(placed.body.data._id)).status).toBe("Pending");
  });
});

describe("a booked parcel is the courier's", () => {
  it("refuses the customer's cancel of a booked order, keeping the order, its stock and the consignment", async () => {
    const { id, trackingNumber } = await store.bookedOrder("postex");
    const stock = await stockOfOrder(id);
    const refused = await customer("POST", `/orders/${id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      code: "HANDED_TO_COURIER",
      message: "This order was already handed to the courier: contact us to cancel it, and we stop the parcel",
    });
    expect(await orderOf(id)).toMatchObject({ status: "Pending", trackingNumber, actions: { cancel: false } });
    expect(await stockOfOrder(id)).toBe(stock);
    expect(store.postex.consignments.find((c) => c.trackingNumber === trackingNumber)!.cancelled).toBe(false);
    // The customer's page says the same, without a cancel button.
    const { text: page } = await pageOf(
      await signedInClient(server.baseUrl, "sana@life.test", "shopperpass1"),
      `/my-orders/${id}`,
    );
    expect(page).toContain("already handed to the courier");
  });

  it("cancels the consignment first when the admin cancels a booked order; a courier's refusal changes nothing", async () => {
    const { id, trackingNumber } = await store.bookedOrder("postex");
    const stock = await stockOfOrder(id);
    const cancelled = await admin("PATCH", `/orders/${id}/status`, { status: "Cancelled" });
    expect(cancelled.status).toBe(200);
    expect(store.postex.consignments.find((c) => c.trackingNumber === trackingNumber)!.cancelled).toBe(true);
    expect(await stockOfOrder(id)).toBe(stock + 1);

    // Picked up meanwhile (the store has not synced yet): PostEx refuses, and the order stays as it was.
    const picked = await store.bookedOrder("postex");
    store.postex.report(picked.trackingNumber, { text: "Shipment Picked", code: "0003", at: new Date() });
    const pickedStock = await stockOfOrder(picked.id);
    const refused = await admin("PATCH", `/orders/${picked.id}/status`, { status: "Cancelled" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("COURIER_REFUSED");
    expect(refused.body.message).toContain("PostEx refused to cancel the parcel");
    expect(await orderOf(picked.id)).toMatchObject({ status: "Pending", trackingNumber: picked.trackingNumber });
    expect(await stockOfOrder(picked.id)).toBe(pickedStock);
  });
});

describe("money the store holds for a cancelled order", () => {
  it("owes a cancelled verified transfer's refund until the admin records it, once", async () => {
    const id = await paidTransferOrder("0344-5556667");
    const cancelled = await admin("PATCH", `/orders/${id}/status`, { status: "Cancelled" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      amountDue: 0,
      refund: { amount: 3000, status: "due", method: null, reference: null, paidAt: null },
      actions: { recordRefund: true },
    });
    const missing = await admin("POST", `/orders/${id}/refund`, { method: "JazzCash" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: "reference", message: "Enter the transaction's reference" }]);
    expect((await orderOf(id)).refund.status).toBe("due");
    expect((await customer("POST", `/orders/${id}/refund`, { method: "Cash" })).status).toBe(403);

    const recorded = await admin("POST", `/orders/${id}/refund`, { method: "JazzCash", reference: "JC-90817" });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data.refund).toMatchObject({ status: "paid", method: "JazzCash", reference: "JC-90817" });
    expect(recorded.body.data.actions.recordRefund).toBe(false);
    expect((await admin("POST", `/orders/${id}/refund`, { method: "Cash" })).status).toBe(409);
    // The customer reads it on their order.
    const { text: page } = await pageOf(
      await signedInClient(server.baseUrl, "sana@life.test", "shopperpass1"),
      `/my-orders/${id}`,
    );
    expect(page).toContain("Refunded Rs. 3,000 by JazzCash, reference JC-90817");
  });

  it("owes a delivered cash order's cash when the admin cancels it, and drops it when the admin restores it", async () => {
    const id = await store.placedOrder({ phone: "0344-5556690" });
    expect((await admin("PATCH", `/orders/${id}/status`, { status: "Delivered" })).status).toBe(200);
    expect(await orderOf(id)).toMatchObject({ amountDue: 0, collectOnDelivery: 3000, refund: null });
    const cancelled = await admin("PATCH", `/orders/${id}/status`, { status: "Cancelled" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ collectOnDelivery: 0, refund: { amount: 3000, status: "due" } });
    // Restored, the admin says the parcel was not delivered after all: no cash held, none owed.
    const restored = await admin("PATCH", `/orders/${id}/status`, { status: "Pending" });
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ amountDue: 3000, collectOnDelivery: 3000, refund: null });
  });

  it("records the refund from the admin's order page as a plain form, keeping a refused form's input", async () => {
    const id = await paidTransferOrder("0345-6667778");
    expect((await admin("PATCH", `/orders/${id}/status`, { status: "Cancelled" })).status).toBe(200);
    const desk = await signedInClient(server.baseUrl, "admin@life.test", ADMIN_PASSWORD);
    expect((await pageOf(desk, `/admin/orders/${id}`)).text).toContain("Rs. 3,000 is owed to the customer");
    const refused = await desk.postForm(`/admin/orders/${id}`, {
      intent: "record-refund",
      method: "Easypaisa",
      reference: "",
    });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain("Enter the transaction&#x27;s reference");
    expect(again).toMatch(/<option value="Easypaisa" selected="">/);
    expect((await orderOf(id)).refund.status).toBe("due");
    const done = await desk.postForm(`/admin/orders/${id}`, {
      intent: "record-refund",
      method: "Easypaisa",
      reference: "EP-4411",
    });
    expect(done.status).toBe(303);
    expect((await orderOf(id)).refund).toMatchObject({ status: "paid", method: "Easypaisa", reference: "EP-4411" });
  });
});

describe("a written reply answers only the order it was asked about", () => {
  it("asks which order when one number has two waiting, and confirms neither", async () => {
    const mine = await store.placedOrder({ phone: "0312-3334445" });
    await confirmationSent(mine);
    const stranger = await store.placedOrder({ phone: "0312-3334445" });
    await confirmationSent(stranger);
    await sms("+923123334445", "1", "SMtwo-waiting");
    expect((await orderOf(mine)).confirmation.status).toBe("pending");
    expect((await orderOf(stranger)).confirmation.status).toBe("pending");
    await until(
      async () => (await server.database.db("order_messages").where({ kind: "choose-order" })).length > 0,
      "the question which order",
    );
  });
});
