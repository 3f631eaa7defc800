/**
 * The customer's optional screenshot of a bank transfer (docs/decisions/2026-11-26-advance-payment.md,
 * "The screenshot's privacy"): sent with the reference from the order's page (a plain multipart
 * form) or the API; checked by the photos' pipeline, refused beside its field with the reference
 * kept and nothing stored; re-encoded without its metadata and kept apart from the public photos;
 * one per order, gone with its order; served only to the order's owner and admins, never cached.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { pageOf, signedInClient } from "../support/page-clients";
import { phonePhoto, photoForm, plainImage } from "../support/photos";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let api: TestClient;
let adminToken: string;
let admin: TestClient;
const address = { street: "9 Canal View", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer();
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Shot Admin", email: "admin@shots.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(api, "admin@shots.test", "adminpass1");
  admin = await signedInClient(server.baseUrl, "admin@shots.test", "adminpass1");
  const account = { bankAccountTitle: "Waqt Watches", bankName: "HBL", iban: "PK36 HABB 0001 2345 6789 0123" };
  expect((await api.api("PUT", "/settings/orders", { body: account, token: adminToken })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

let shoppers = 0;
/** A new shopper's bank-transfer order, placed through the API, with the shopper's clients. */
async function transferOrder() {
  shoppers += 1;
  const email = `shopper${shoppers}@shots.test`;
  await insertUser(server, { name: `Shopper ${shoppers}`, email, password: "shopperpass1" });
  const token = await apiToken(api, email, "shopperpass1");
  const [productId] = await insertProducts(server, [{ name: `Shot Watch ${shoppers}`, price: 6000, stock: 5 }]);
  expect((await api.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
  const placed = await api.api("POST", "/orders", {
    body: { address, phone: "0301-5556667", paymentMethod: "Bank Transfer" },
    token,
  });
  expect(placed.status).toBe(201);
  expect(placed.body.data.payment.screenshot).toBe(false);
  const browser = await signedInClient(server.baseUrl, email, "shopperpass1");
  return { orderId: placed.body.data._id as string, token, browser };
}

/** The reference form as a browser sends it: multipart, the screenshot in `screenshot` (or none chosen). */
function referenceForm(reference: string, screenshot: Uint8Array | null, name = "transfer.png"): FormData {
  const form = photoForm({ reference });
  form.append(
    "screenshot",
    screenshot ? new Blob([new Uint8Array(screenshot)], { type: "image/png" }) : new Blob([]),
    screenshot ? name : "",
  );
  return form;
}

const screenshotUrl = (orderId: string, size = "") =>
  `/orders/${orderId}/payment-screenshot${size ? `?size=${size}` : ""}`;
const storedScreenshots = async (orderId: string) =>
  server.database.db("payment_screenshots").where({ order_id: orderId });
const paymentOf = async (orderId: string) =>
  server.database.db("orders").where({ id: orderId }).first("paymentStatus", "paymentReference");

describe("the screenshot from the order's page", () => {
  it("is sent with the reference, shown to its owner and the admin, and to nobody else", async () => {
    const { orderId, browser } = await transferOrder();
    const page = await pageOf(browser, `/my-orders/${orderId}`);
    expect(page.text).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(page.text).toMatch(/<input id="field-screenshot"[^>]*name="screenshot"/);

    // A phone's photo, with the camera and a GPS position in its EXIF: none of it may be kept.
    const photo = await phonePhoto({ width: 1200, height: 900, grain: 2 });
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const photosBefore = Number((await server.database.db("product_photos").count("* as n"))[0]!.n);
    const sent = await browser.postMultipart(`/my-orders/${orderId}`, referenceForm("HBL 778899", photo, "tid.jpg"));
    expect(sent.status).toBe(303);
    expect(await paymentOf(orderId)).toMatchObject({ paymentStatus: "submitted", paymentReference: "HBL 778899" });
    // Not a product photo: nothing public was added.
    expect(Number((await server.database.db("product_photos").count("* as n"))[0]!.n)).toBe(photosBefore);
    expect(await pageOf(browser, `/my-orders/${orderId}`)).toMatchObject({
      text: expect.stringContaining(`href="${screenshotUrl(orderId)}"`),
    });

    const own = await browser.get(screenshotUrl(orderId));
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("image/webp");
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    const served = await sharp(Buffer.from(await own.arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: "webp", width: 900, height: 1200 });
    expect(served.exif).toBeUndefined();

    // The admin's order page shows its thumbnail, linking to the full image, beside the reference.
    const adminPage = await pageOf(admin, `/admin/orders/${orderId}`);
    expect(adminPage.text).toContain("Reference HBL 778899");
    expect(adminPage.text).toContain(`<a href="${screenshotUrl(orderId)}"`);
    expect(adminPage.text).toContain(`src="${screenshotUrl(orderId, "thumbnail")}"`);
    const thumbnail = await admin.get(screenshotUrl(orderId, "thumbnail"));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get("cache-control")).toBe("private, no-store");
    expect((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width).toBe(240);
    expect((await admin.get(screenshotUrl(orderId))).status).toBe(200);

    // Another customer and a guest: the 404 of an order that does not exist.
    const { browser: other } = await transferOrder();
    const refusedOther = await other.get(screenshotUrl(orderId));
    expect(refusedOther.status).toBe(404);
    expect(refusedOther.headers.get("content-type")).not.toContain("image");
    expect((await new TestClient(server.baseUrl).get(screenshotUrl(orderId))).status).toBe(404);
    // The API tells the owner a screenshot was sent, not where any image is.
    const read = await api.api("GET", `/orders/${orderId}`, { token: adminToken });
    expect(read.body.data.payment.screenshot).toBe(true);
  });

  it("refuses a file over 10 MB or not an image beside the field, keeping the reference and storing nothing", async () => {
    const { orderId, browser } = await transferOrder();
    const tooLarge = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const large = await browser.postMultipart(`/my-orders/${orderId}`, referenceForm("MEEZAN 4455", tooLarge));
    expect(large.status).toBe(413);
    const largePage = await large.text();
    expect(largePage).toMatch(/id="field-screenshot-error"[^>]*>The photo must be at most 10 MB</);
    expect(largePage).toContain('value="MEEZAN 4455"');

    const text = Buffer.from("my bank statement, as text");
    const notImage = await browser.postMultipart(`/my-orders/${orderId}`, referenceForm("MEEZAN 4455", text));
    expect(notImage.status).toBe(400);
    const notImagePage = await notImage.text();
    expect(notImagePage).toMatch(/id="field-screenshot-error"[^>]*>The photo must be a JPEG, PNG, WebP or AVIF/);
    expect(notImagePage).toContain('value="MEEZAN 4455"');

    expect(await paymentOf(orderId)).toMatchObject({ paymentStatus: "awaiting", paymentReference: null });
    expect(await storedScreenshots(orderId)).toHaveLength(0);

    // No file chosen: the reference alone, as before.
    expect((await browser.postMultipart(`/my-orders/${orderId}`, referenceForm("MEEZAN 4455", null))).status).toBe(303);
    expect(await paymentOf(orderId)).toMatchObject({ paymentStatus: "submitted", paymentReference: "MEEZAN 4455" });
    expect(await storedScreenshots(orderId)).toHaveLength(0);
  });
});

describe("the screenshot through the API", () => {
  it("takes reference and screenshot as multipart, replaces an older one, and refuses a file that is not an image", async () => {
    const { orderId, token } = await transferOrder();
    const first = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("UBL 1001", await plainImage(600, 1200, "png")),
      token,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.payment).toMatchObject({ status: "submitted", reference: "UBL 1001", screenshot: true });
    const [stored] = await storedScreenshots(orderId);
    expect(stored).toMatchObject({ width: 600, height: 1200 });

    const refused = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("UBL 2002", Buffer.from("%PDF-1.7 not an image")),
      token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "screenshot", message: expect.stringMatching(/^The photo must be a JPEG, PNG, WebP or AVIF/) },
    ]);
    expect(await paymentOf(orderId)).toMatchObject({ paymentReference: "UBL 1001" });

    const second = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("UBL 2002", await plainImage(400, 800, "jpeg")),
      token,
    });
    expect(second.status).toBe(200);
    // One per order: the new one replaced the old, whose bytes are gone.
    const after = await storedScreenshots(orderId);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ width: 400, height: 800 });

    // JSON, as old clients send it: the reference alone, the screenshot kept.
    const json = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: { reference: "UBL 3003" },
      token,
    });
    expect(json.status).toBe(200);
    expect(json.body.data.payment).toMatchObject({ reference: "UBL 3003", screenshot: true });
  });

  it("is downloaded with a bearer token by its owner and admins, the bytes the page serves, and by nobody else", async () => {
    const { orderId, token, browser } = await transferOrder();
    const sent = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("ALLIED 6006", await plainImage(500, 1000, "png")),
      token,
    });
    expect(sent.status).toBe(200);
    const onPage = Buffer.from(await (await browser.get(screenshotUrl(orderId))).arrayBuffer());
    for (const caller of [token, adminToken]) {
      const download = await fetch(`${server.baseUrl}/api/v1${screenshotUrl(orderId)}`, {
        headers: { authorization: `Bearer ${caller}` },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("image/webp");
      expect(download.headers.get("cache-control")).toBe("private, no-store");
      expect(Buffer.from(await download.arrayBuffer()).equals(onPage)).toBe(true);
    }
    // As the OpenAPI document describes it (TestClient.api checks every answer against it).
    expect((await api.api("GET", screenshotUrl(orderId), { token })).status).toBe(200);

    // Another customer: the 404 of an order that does not exist, as for their own order without a screenshot.
    const { orderId: noScreenshot, token: otherToken } = await transferOrder();
    for (const [id, caller] of [
      [orderId, otherToken],
      [noScreenshot, otherToken],
    ] as const) {
      const refused = await api.api("GET", screenshotUrl(id), { token: caller });
      expect(refused.status).toBe(404);
      expect(refused.headers.get("cache-control")).toContain("no-store");
      expect(refused.body).toEqual({ success: false, message: "Screenshot not found" });
    }
    expect((await api.api("GET", screenshotUrl(orderId))).status).toBe(401);
  });

  it("is deleted with its order", async () => {
    const { orderId, token } = await transferOrder();
    const sent = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("JS 5005", await plainImage(300, 600, "png")),
      token,
    });
    expect(sent.status).toBe(200);
    expect(await storedScreenshots(orderId)).toHaveLength(1);
    await server.database.db("orders").where({ id: orderId }).delete();
    expect(await storedScreenshots(orderId)).toHaveLength(0);
  });
});
