/**
 * The order-placed mail of an order with a discount code, through a real SMTP server
 * (tests/support/smtp-server.ts; docs/product.md, "Order mails"): the subtotal, the discount's line
 * and the total the courier collects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";
const STORE_EMAIL = "orders@shop.example";

let server: TestServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer(
    { SMTP_URL: smtp.url, PUBLIC_URL, STORE_EMAIL, SITE_NAME: "Waqt", MAIL_RETRY_SECONDS: "0.1" },
    { mail: { pollMs: 50 } },
  );
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const number = (id: string) => `#${id.slice(-8).toUpperCase()}`;

let shopperNumber = 0;
async function newShopper() {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@promise-mails.test`;
  await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  const client = new TestClient(server.baseUrl);
  expect((await client.postForm("/login", { email, password: "shopperpass1" })).status).toBe(303);
  return { email, client, token: await apiToken(client, email, "shopperpass1") };
}

/** Places an order through the checkout page, with a discount code when given, and answers its id. */
async function orderByPage(client: TestClient, productId: string, quantity: number, discountCode = "") {
  await client.postForm("/cart", { intent: "add", productId, quantity: String(quantity), then: "cart" });
  const checkout = await (await client.get("/checkout")).text();
  const checkoutKey = /name="checkoutKey" value="([^"]+)"/.exec(checkout)![1]!;
  const placed = await client.postForm("/checkout", { ...address, phone: "0300-1234567", checkoutKey, discountCode });
  expect(placed.status).toBe(303);
  return placed.headers.get("location")!.split("/").pop()!;
}

describe("the order-placed mail with a discount code", () => {
  it("lists the subtotal, the discount's line and the total the courier collects", async () => {
    const [watch] = await insertProducts(server, [{ name: "Margalla Automatic", price: 12_500, stock: 5 }]);
    const shopper = await newShopper();
    const orderId = await orderByPage(shopper.client, watch!, 1, " first10 ");

    const mail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes(number(orderId)));
    expect(mail.subject).toBe(`Your Waqt order ${number(orderId)} is placed`);
    expect(mail.text).toContain("Margalla Automatic × 1  Rs. 12,500");
    expect(mail.text).toContain("Subtotal  Rs. 12,500");
    expect(mail.text).toContain("Discount (FIRST10)  −Rs. 1,250");
    expect(mail.text).toContain("Total (delivery free)  Rs. 11,250");
    expect(mail.text).toContain("Pay the courier Rs. 11,250 in cash");
    for (const line of ["Subtotal", "Discount (FIRST10)", "−Rs. 1,250", "Rs. 11,250"]) {
      expect(mail.html).toContain(`>${line}</td>`);
    }
    // The store's notice gives the total after the discount.
    const notice = await smtp.waitFor((m) => m.to.includes(STORE_EMAIL) && m.subject.includes(number(orderId)));
    expect(notice.subject).toContain("Rs. 11,250");
    expect(notice.text).toContain("Discount (FIRST10)  −Rs. 1,250");
  });

  it("is unchanged without a code: no subtotal or discount line", async () => {
    const [watch] = await insertProducts(server, [{ name: "Plain Quartz", price: 7_000, stock: 5 }]);
    const shopper = await newShopper();
    const orderId = await orderByPage(shopper.client, watch!, 2);
    const mail = await smtp.waitFor((m) => m.to.includes(shopper.email) && m.subject.includes(number(orderId)));
    expect(mail.text).toContain("Plain Quartz × 2  Rs. 14,000");
    expect(mail.text).toContain("Total (delivery free)  Rs. 14,000");
    expect(mail.text).not.toContain("Subtotal");
    expect(mail.text).not.toContain("Discount");
  });
});
