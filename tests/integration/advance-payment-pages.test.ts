/**
 * Paying in advance through the pages, as plain form posts (no JavaScript): the admin sets the
 * bank account on /admin/settings/orders; a checkout a cash-on-delivery rule refuses offers "Pay
 * in advance by bank transfer", which places the same cart as a bank-transfer order; the order's
 * page shows the account and takes the reference; the admin's order page refuses to ship it
 * until the payment is verified there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let adminPages: TestClient;
const address = { street: "3 Jail Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Pay Admin", email: "admin@pay.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@pay.test", "adminpass1");
  adminPages = new TestClient(server.baseUrl);
  expect(
    (await adminPages.postForm("/login", { email: "admin@pay.test", password: "adminpass1", redirectTo: "" })).status,
  ).toBe(303);
});
afterAll(async () => {
  await server?.close();
});

describe("paying in advance through the pages", () => {
  it("turns a refused cash-on-delivery checkout into a bank transfer, takes its reference, and ships it once verified", async () => {
    // The bank account, set on the settings page: a wrong IBAN is said beside its field, values kept.
    const account = {
      intent: "bank-transfer",
      bankAccountTitle: "Waqt Watches",
      bankName: "HBL",
      iban: "PK36 HABB 0001 2345 6789 012",
      raastId: "0300-5550001",
      bankTransferDiscountPercent: "",
      unpaidTransferHours: "48",
    };
    const wrong = await adminPages.postForm("/admin/settings/orders", account);
    expect(wrong.status).toBe(400);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain("Enter a Pakistani IBAN");
    expect(wrongPage).toContain('value="PK36 HABB 0001 2345 6789 012"');
    expect(
      (await adminPages.postForm("/admin/settings/orders", { ...account, iban: "PK36 HABB 0001 2345 6789 0123" }))
        .status,
    ).toBe(303);
    const settingsPage = await (await adminPages.get("/admin/settings/orders")).text();
    expect(settingsPage).toContain('value="PK36 HABB 0001 2345 6789 0123"');
    // Any first order above Rs. 5,000 on cash on delivery is refused.
    expect(
      (await client.api("PUT", "/settings/orders", { body: { firstTimeCodLimit: 5000 }, token: adminToken })).status,
    ).toBe(200);

    await insertUser(server, { name: "Ayesha", email: "ayesha@pay.test", password: "shopperpass1" });
    const token = await apiToken(client, "ayesha@pay.test", "shopperpass1");
    const [productId] = await insertProducts(server, [{ name: "Transfer Watch", price: 8000, stock: 5 }]);
    expect((await client.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
    const pages = new TestClient(server.baseUrl);
    await pages.postForm("/login", { email: "ayesha@pay.test", password: "shopperpass1", redirectTo: "" });

    const checkoutPage = await (await pages.get("/checkout")).text();
    expect(checkoutPage).toContain('name="paymentMethod" value="Bank Transfer"');
    const form = { ...address, phone: "0312-7770007", checkoutKey: "pay-page-1", paymentMethod: "Cash on Delivery" };
    const refused = await pages.postForm("/checkout", form);
    expect(refused.status).toBe(409);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("Remove some items, or pay in advance by bank transfer.");
    expect(refusedPage).toContain("Pay in advance by bank transfer");
    expect(refusedPage).toContain('value="3 Jail Road"');

    const placed = await pages.postForm("/checkout", { ...form, intent: "pay-in-advance" });
    expect(placed.status).toBe(303);
    const orderId = placed.headers.get("location")!.split("/").pop()!;
    const order = await server.database.db("orders").where({ id: orderId }).first();
    expect(order).toMatchObject({ paymentMethod: "Bank Transfer", paymentStatus: "awaiting" });

    // The order's page: amount, account, and the reference form; a bad reference is said beside it.
    const orderPage = await (await pages.get(`/my-orders/${orderId}`)).text();
    expect(orderPage).toContain("Awaiting your transfer");
    expect(orderPage).toContain("PK36 HABB 0001 2345 6789 0123");
    expect(orderPage).toContain("0300-5550001");
    expect(orderPage).toContain("Rs. 8,000");
    const badReference = await pages.postForm(`/my-orders/${orderId}`, { reference: "" });
    expect(badReference.status).toBe(400);
    expect(await badReference.text()).toContain("Enter the transaction reference (TID) of your transfer");
    expect((await pages.postForm(`/my-orders/${orderId}`, { reference: "HBL 445566" })).status).toBe(303);
    expect(await (await pages.get(`/my-orders/${orderId}`)).text()).toContain("reference HBL 445566");

    // The admin cannot ship it before verifying (409 on the ship page, the order unchanged); then can.
    const shipForm = { courier: "TCS", trackingNumber: "TCS-101010", shipUnconfirmed: "true" };
    const early = await adminPages.postForm(`/admin/orders/${orderId}/ship`, shipForm);
    expect(early.status).toBe(409);
    const earlyPage = await early.text();
    expect(earlyPage).toContain("its payment is not verified yet");
    expect(earlyPage).toContain('value="TCS-101010"');
    expect((await server.database.db("orders").where({ id: orderId }).first()).status).toBe("Pending");
    expect(await (await adminPages.get(`/admin/orders/${orderId}`)).text()).toContain("Verify payment of Rs. 8,000");

    expect((await adminPages.postForm(`/admin/orders/${orderId}`, { intent: "payment-verified" })).status).toBe(303);
    expect(await (await adminPages.get(`/admin/orders/${orderId}`)).text()).toContain("Payment verified");
    expect((await adminPages.postForm(`/admin/orders/${orderId}/ship`, shipForm)).status).toBe(303);
    expect((await server.database.db("orders").where({ id: orderId }).first()).status).toBe("Shipped");
  });
});
