/**
 * Paying in advance by bank transfer or Raast (docs/product.md, "Paying in advance"), through the
 * API: the store's account in the order settings (offered only when set), an order placed with
 * "Bank Transfer" and its discount, the customer's reference, the admin's verdict (verified or
 * rejected) with the ship guard (409 until verified), a phone the cash-on-delivery rules block
 * paying in advance, and the sweep that cancels unpaid transfers on an injected clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
const clock = new TestClock();

const address = { street: "9 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const ACCOUNT = {
  bankAccountTitle: "Waqt Watches (Pvt) Ltd",
  bankName: "Meezan Bank",
  iban: "pk36 mezn 0001 2345 6789 0123",
  raastId: "0300-7654321",
  bankTransferDiscountPercent: null,
};
const ACCOUNT_UNSET = { bankAccountTitle: null, bankName: null, iban: null, raastId: null };

beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.now });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@advance.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@advance.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  clock.set("2026-12-01T09:00:00Z");
  await server.database.db("order_blocklist").del();
  await settings({ ...ACCOUNT, unpaidTransferHours: 48 });
});

async function settings(body: Record<string, unknown>) {
  const answer = await client.api("PUT", "/settings/orders", { body, token: adminToken });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

let shoppers = 0;
/** A new shopper with 2 of a watch at Rs. 10,000 (10 in stock) in their cart. */
async function shopperWithCart() {
  shoppers += 1;
  const email = `shopper${shoppers}@advance.test`;
  await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(client, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Advance Watch ${shoppers}`, price: 10_000, stock: 10 }]);
  expect((await client.api("POST", "/cart", { body: { productId, quantity: 2 }, token })).status).toBe(200);
  return { email, token, productId: productId! };
}

/** A bank-transfer order of a new shopper (placed through the API). */
async function transferOrder(extra: Record<string, unknown> = {}) {
  const shopper = await shopperWithCart();
  const placed = await client.api("POST", "/orders", {
    body: { address, phone: "0300-1112223", paymentMethod: "Bank Transfer", ...extra },
    token: shopper.token,
  });
  expect(placed.status).toBe(201);
  return { ...shopper, orderId: placed.body.data._id as string, order: placed.body.data };
}

const reference = (orderId: string, body: unknown, token: string) =>
  client.api("POST", `/orders/${orderId}/payment-reference`, { body, token });
const verdict = (orderId: string, body: unknown, token = adminToken) =>
  client.api("PATCH", `/orders/${orderId}/payment`, { body, token });
const ship = (orderId: string) =>
  client.api("PATCH", `/orders/${orderId}/status`, {
    body: { status: "Shipped", courier: "TCS", trackingNumber: "TCS-778899" },
    token: adminToken,
  });
const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock"))?.stock;
const mailKinds = async (recipient: string) =>
  (await server.database.db("outbox").where({ recipient }).orderBy("created_at")).map((row) => row.kind as string);
const first10Uses = async () =>
  (await client.api("GET", "/discounts", { token: adminToken })).body.data.find(
    (code: { code: string }) => code.code === "FIRST10",
  ).usedCount as number;
const SHIP_REFUSED = {
  success: false,
  message:
    "This order is paid by bank transfer and its payment is not verified yet: verify the payment before shipping it",
};

describe("the store's bank account, in the order settings", () => {
  it("is read and set by admins with the IBAN and Raast ID checked and stored in one form", async () => {
    const read = await client.api("GET", "/settings/orders", { token: adminToken });
    expect(read.body.data).toMatchObject({
      bankAccountTitle: "Waqt Watches (Pvt) Ltd",
      bankName: "Meezan Bank",
      iban: "PK36MEZN0001234567890123",
      raastId: "+923007654321",
      bankTransferDiscountPercent: null,
      unpaidTransferHours: 48,
    });
    for (const [field, value, message] of [
      ["iban", "PK36MEZN000123456789012", "Enter a Pakistani IBAN: PK, 2 digits, 4 letters and 16 digits"],
      ["iban", "GB33BUKB20201555555555", "Enter a Pakistani IBAN: PK, 2 digits, 4 letters and 16 digits"],
      ["raastId", "12345", "Raast ID: a Pakistani mobile number, e.g. 0300-1234567"],
      ["bankTransferDiscountPercent", 60, "Discount for paying in advance must be at most 50"],
      ["unpaidTransferHours", 0, "Hours to pay must be at least 1, or empty for off"],
    ] as const) {
      const refused = await client.api("PUT", "/settings/orders", {
        body: { bankName: "Changed Bank", [field]: value },
        token: adminToken,
      });
      expect(refused.status, `${field} ${value}`).toBe(400);
      expect(refused.body.errors[0].field).toBe(field);
      expect(refused.body.errors[0].message).toContain(message);
    }
    // Nothing changed by a refused change.
    expect((await client.api("GET", "/settings/orders", { token: adminToken })).body.data.bankName).toBe("Meezan Bank");
  });

  it("offers the bank transfer only while the title, bank and IBAN are set: otherwise a 400 and the cart stays", async () => {
    await settings(ACCOUNT_UNSET);
    const shopper = await shopperWithCart();
    const refused = await client.api("POST", "/orders", {
      body: { address, paymentMethod: "Bank Transfer" },
      token: shopper.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "paymentMethod", message: "Bank transfer / Raast is not offered by this store" },
    ]);
    expect((await client.api("GET", "/cart", { token: shopper.token })).body.data.cart.items).toHaveLength(1);
    const unknown = await client.api("POST", "/orders", {
      body: { address, paymentMethod: "Cheque" },
      token: shopper.token,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe("paymentMethod");
    // Without a method the order is cash on delivery, as before.
    const cod = await client.api("POST", "/orders", { body: { address }, token: shopper.token });
    expect(cod.status).toBe(201);
    expect(cod.body.data.paymentMethod).toBe("Cash on Delivery");
    expect(cod.body.data.payment).toMatchObject({ method: "Cash on Delivery", status: "on-delivery" });
  });
});

describe("a bank-transfer order", () => {
  it("is verified by an admin after the customer's reference, and only then ships", async () => {
    await settings({ bankTransferDiscountPercent: 5 });
    const { orderId, order, token, email } = await transferOrder();
    expect(order).toMatchObject({
      paymentMethod: "Bank Transfer",
      subtotal: 20_000,
      totalPrice: 19_000,
      payment: { method: "Bank Transfer", status: "awaiting", discount: 1000, reference: null, verifiedAt: null },
    });
    expect(await ship(orderId)).toMatchObject({ status: 409, body: SHIP_REFUSED });

    clock.advance(60 * 60 * 1000);
    const sent = await reference(orderId, { reference: "  RAAST 2026 1201 7781 " }, token);
    expect(sent.status).toBe(200);
    expect(sent.body.data.payment).toMatchObject({
      status: "submitted",
      reference: "RAAST 2026 1201 7781",
      submittedAt: "2026-12-01T10:00:00.000Z",
    });
    expect(await ship(orderId)).toMatchObject({ status: 409, body: SHIP_REFUSED });

    clock.advance(60 * 60 * 1000);
    const verified = await verdict(orderId, { status: "verified" });
    expect(verified.status).toBe(200);
    expect(verified.body.data.payment).toMatchObject({
      status: "verified",
      verifiedAmount: 19_000,
      verifiedAt: "2026-12-01T11:00:00.000Z",
    });
    expect((await reference(orderId, { reference: "ANOTHER-1" }, token)).status).toBe(409);
    expect((await verdict(orderId, { status: "verified" })).status).toBe(409);

    const shipped = await ship(orderId);
    expect(shipped.status).toBe(200);
    expect(shipped.body.data.status).toBe("Shipped");
    expect(await mailKinds(email)).toEqual(["order-placed", "payment-verified", "order-shipped"]);
    const mails = await server.database.db("outbox").where({ recipient: email }).orderBy("created_at");
    expect(mails[0].text_body ?? mails[0].textBody).toContain("Discount for paying in advance");
    expect(mails[2].text_body ?? mails[2].textBody).toContain("nothing to pay the courier");
    const toStore = await server.database.db("outbox").where({ kind: "payment-submitted" });
    expect(toStore.some((mail) => mail.subject.includes("RAAST 2026 1201 7781"))).toBe(true);
  });

  it("is rejected with a reason, stays unshippable, and takes a new reference", async () => {
    const { orderId, token, email } = await transferOrder();
    // Nothing to reject before the customer sent a reference.
    expect((await verdict(orderId, { status: "rejected", reason: "No transfer" })).status).toBe(409);
    expect((await reference(orderId, { reference: "TID 55" }, token)).status).toBe(200);
    const noReason = await verdict(orderId, { status: "rejected" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0].field).toBe("reason");
    const rejected = await verdict(orderId, { status: "rejected", reason: "No transfer with this reference arrived" });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.payment).toMatchObject({
      status: "rejected",
      rejectedReason: "No transfer with this reference arrived",
      verifiedAt: null,
    });
    expect(await ship(orderId)).toMatchObject({ status: 409, body: SHIP_REFUSED });
    expect(
      (await client.api("PATCH", `/orders/${orderId}/status`, { body: { status: "Delivered" }, token: adminToken }))
        .status,
    ).toBe(409);
    const again = await reference(orderId, { reference: "TID 56" }, token);
    expect(again.status).toBe(200);
    expect(again.body.data.payment).toMatchObject({ status: "submitted", reference: "TID 56", rejectedReason: null });
    expect(await mailKinds(email)).toEqual(["order-placed", "payment-rejected"]);
  });

  it("takes a reference from its owner only, checked, and refuses a cash-on-delivery order's", async () => {
    const { orderId, token } = await transferOrder();
    const other = await shopperWithCart();
    expect((await reference(orderId, { reference: "TID 1" }, other.token)).status).toBe(404);
    const bad = await reference(orderId, { reference: "<script>" }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({
      field: "reference",
      message: "Transaction reference may contain letters, digits, spaces, dashes and slashes only",
    });
    expect((await reference(orderId, {}, token)).body.errors[0].message).toBe(
      "Enter the transaction reference (TID) of your transfer",
    );
    const cod = await client.api("POST", "/orders", { body: { address }, token: other.token });
    expect(cod.status).toBe(201);
    const onDelivery = await reference(cod.body.data._id, { reference: "TID 2" }, other.token);
    expect(onDelivery.status).toBe(409);
    expect(onDelivery.body.message).toBe("This order is paid on delivery: it has no transfer to report or verify");
    expect((await verdict(cod.body.data._id, { status: "verified" })).status).toBe(409);
    // Cash on delivery still ships at once.
    expect((await ship(cod.body.data._id)).status).toBe(200);
  });
});

describe("a phone the cash-on-delivery rules refuse", () => {
  it("is offered paying in advance, and its bank-transfer order is placed", async () => {
    await client.api("PUT", "/settings/orders", {
      body: { blocklist: [{ value: "0321-4445556", note: "Refused two parcels" }] },
      token: adminToken,
    });
    const shopper = await shopperWithCart();
    const refused = await client.api("POST", "/orders", {
      body: { address, phone: "0321-4445556" },
      token: shopper.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "COD_BLOCKED",
      message:
        "Cash on delivery is not available for this mobile number or email. You can still order it by paying in advance by bank transfer.",
    });
    const paid = await client.api("POST", "/orders", {
      body: { address, phone: "0321-4445556", paymentMethod: "Bank Transfer" },
      token: shopper.token,
    });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ phone: "+923214445556", payment: { status: "awaiting" } });
    await settings({ blocklist: [] });
  });
});

describe("unpaid transfers", () => {
  it("are cancelled the settings' hours after they were placed, with the stock and the code's use given back", async () => {
    const unpaid = await transferOrder({ discountCode: "first10" });
    expect(unpaid.order.discount).toEqual({ code: "FIRST10", amount: 2000 });
    const submitted = await transferOrder();
    expect((await reference(submitted.orderId, { reference: "TID 900" }, submitted.token)).status).toBe(200);
    expect(await stockOf(unpaid.productId)).toBe(8);
    const usesBefore = await first10Uses();

    // The clock the sweep reads, against the time the database gave the order (earlier tests'
    // unpaid orders, older still, are cancelled by the first sweep).
    const statusOf = async () =>
      (await client.api("GET", `/orders/${unpaid.orderId}`, { token: unpaid.token })).body.data.status;
    clock.set(new Date(new Date(unpaid.order.createdAt).getTime() + 48 * 60 * 60 * 1000 - 1000).toISOString());
    await server.services.advancePayment.cancelUnpaid();
    expect(await statusOf()).toBe("Pending");
    // 48 hours and a millisecond: the database keeps the order's time to the microsecond.
    clock.advance(1001);
    expect((await server.services.advancePayment.cancelUnpaid()).cancelled).toBeGreaterThanOrEqual(1);
    const read = await client.api("GET", `/orders/${unpaid.orderId}`, { token: unpaid.token });
    expect(read.body.data).toMatchObject({ status: "Cancelled", cancelReason: "Not paid" });
    expect(await stockOf(unpaid.productId)).toBe(10);
    expect(await mailKinds(unpaid.email)).toEqual(["order-placed", "order-cancelled"]);
    expect(await first10Uses()).toBe(usesBefore - 1);
    // A reference sent in time keeps the order for the admin.
    const kept = await client.api("GET", `/orders/${submitted.orderId}`, { token: submitted.token });
    expect(kept.body.data).toMatchObject({ status: "Pending", payment: { status: "submitted" } });
    // Off: nothing is cancelled.
    const late = await transferOrder();
    await settings({ unpaidTransferHours: null });
    clock.advance(30 * 24 * 60 * 60 * 1000);
    expect(await server.services.advancePayment.cancelUnpaid()).toEqual({ cancelled: 0 });
    expect((await client.api("GET", `/orders/${late.orderId}`, { token: late.token })).body.data.status).toBe(
      "Pending",
    );
  });
});
