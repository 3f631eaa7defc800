/**
 * Uploads are authorised before a byte of them is read (docs/decisions/2026-11-29-uploads-authorised-first.md):
 * another customer's order answers 404, and a review by someone who may not write it 403, before
 * any check of the upload (its type, size or pixels) and before its body is read at all; nothing
 * of a stranger's upload is decoded. The one photo lane's queue is bounded: when it is full an
 * upload is refused with 503 and Retry-After (the API's envelope; the page beside the field), and
 * taken again once the lane drains.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { signedInClient } from "../support/page-clients";
import { photoForm, plainImage } from "../support/photos";
import { ReviewScene } from "../support/review-fixtures";
import { loadServerBuild, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let api: TestClient;
let adminToken: string;
let scene: ReviewScene;
/** The server's photo lane, made here so that the tests can see it and fill it (at most one photo waits). */
let lane: InstanceType<Awaited<ReturnType<typeof loadServerBuild>>["PhotoLane"]>;
const address = { street: "9 Canal View", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  const { PhotoLane } = await loadServerBuild();
  lane = new PhotoLane({ maxWaiting: 1 });
  server = await startTestServer({}, { photoLane: lane });
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Lane Admin", email: "admin@lane.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(api, "admin@lane.test", "adminpass1");
  const account = { bankAccountTitle: "Waqt Watches", bankName: "HBL", iban: "PK36 HABB 0001 2345 6789 0123" };
  expect((await api.api("PUT", "/settings/orders", { body: account, token: adminToken })).status).toBe(200);
  scene = new ReviewScene(server, api, adminToken, "lane.test");
});
afterAll(async () => {
  await server?.close();
});

let shoppers = 0;
/** A shopper's bank-transfer order, placed through the API, with the shopper's page client and token. */
async function transferOrder() {
  shoppers += 1;
  const email = `payer${shoppers}@lane.test`;
  await insertUser(server, { name: `Payer ${shoppers}`, email, password: "payerpass1" });
  const token = await apiToken(api, email, "payerpass1");
  const [productId] = await insertProducts(server, [{ name: `Lane Watch ${shoppers}`, price: 6000, stock: 5 }]);
  expect((await api.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
  const placed = await api.api("POST", "/orders", {
    body: { address, phone: "0301-5556667", paymentMethod: "Bank Transfer" },
    token,
  });
  expect(placed.status).toBe(201);
  return {
    orderId: placed.body.data._id as string,
    token,
    browser: await signedInClient(server.baseUrl, email, "payerpass1"),
  };
}

function referenceForm(reference: string, screenshot: Uint8Array): FormData {
  const form = photoForm({ reference });
  form.append("screenshot", new Blob([new Uint8Array(screenshot)], { type: "image/png" }), "transfer.png");
  return form;
}

const paymentOf = async (orderId: string) =>
  server.database.db("orders").where({ id: orderId }).first("paymentStatus", "paymentReference");
const storedScreenshots = async (orderId: string) =>
  server.database.db("payment_screenshots").where({ order_id: orderId });

/**
 * A multipart POST whose headers and first 64 kB are sent, and the rest never: the answer that
 * comes back was given without reading the body. Resolves with its status and text.
 */
function answerBeforeTheBody(url: string, headers: Record<string, string>, field: string) {
  const boundary = "----waqt-unread-body";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="reference"\r\n\r\nHBL 4455\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nA title\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const first = Buffer.concat([head, Buffer.from("\x89PNG\r\n\x1a\n"), Buffer.alloc(64 * 1024, 1)]);
  const target = new URL(url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: "POST",
      headers: {
        ...headers,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        // Twenty megabytes announced: within the 32 MB a photo form may send.
        "content-length": String(20 * 1024 * 1024),
      },
    });
    let answered = false;
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        answered = true;
        request.destroy();
        resolve({ status: response.statusCode!, text });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    request.write(first);
  });
}

describe("a transfer's screenshot for another customer's order", () => {
  it("answers 404 before any check of the upload: not an image, over 10 MB, over 40 megapixels", async () => {
    const { orderId } = await transferOrder();
    const { token: strangerToken, browser: stranger } = await transferOrder();
    const uploads: [string, Uint8Array][] = [
      ["not an image", Buffer.from("my bank statement, as text")],
      ["over 10 MB", Buffer.alloc(10 * 1024 * 1024 + 1, 7)],
      ["over 40 megapixels", await plainImage(7000, 6000, "png")],
      ["a fine screenshot", await plainImage(600, 1200, "png")],
    ];
    const started = lane.stats().started;
    for (const [what, bytes] of uploads) {
      const viaApi = await api.api("POST", `/orders/${orderId}/payment-reference`, {
        body: referenceForm("HBL 1234", bytes),
        token: strangerToken,
      });
      expect(viaApi.status, `API, ${what}`).toBe(404);
      expect(viaApi.body).toEqual({ success: false, message: "Order not found" });
      const viaPage = await stranger.postMultipart(`/my-orders/${orderId}`, referenceForm("HBL 1234", bytes));
      expect(viaPage.status, `page, ${what}`).toBe(404);
    }
    // Nothing of theirs was decoded, nor changed.
    expect(lane.stats().started).toBe(started);
    expect(await paymentOf(orderId)).toMatchObject({ paymentStatus: "awaiting", paymentReference: null });
    expect(await storedScreenshots(orderId)).toHaveLength(0);
  });

  it("answers 404 without reading the body, on the API and the page", async () => {
    const { orderId } = await transferOrder();
    const { token: strangerToken, browser: stranger } = await transferOrder();
    const viaApi = await answerBeforeTheBody(
      `${server.baseUrl}/api/v1/orders/${orderId}/payment-reference`,
      { authorization: `Bearer ${strangerToken}` },
      "screenshot",
    );
    expect(viaApi.status).toBe(404);
    expect(JSON.parse(viaApi.text)).toEqual({ success: false, message: "Order not found" });
    const viaPage = await answerBeforeTheBody(
      `${server.baseUrl}/my-orders/${orderId}`,
      { cookie: stranger.cookieHeader(), origin: server.baseUrl },
      "screenshot",
    );
    expect(viaPage.status).toBe(404);
    // The server still answers on: the unread bodies were let go.
    const { token, browser } = await transferOrder();
    expect((await api.api("GET", `/orders/${orderId}`, { token: adminToken })).status).toBe(200);
    expect((await browser.get("/my-orders")).status).toBe(200);
    expect(token).toBeTruthy();
  });
});

describe("a review's photos from someone who may not write it", () => {
  it("answers 403 before any check of the photos, and without reading the body", async () => {
    const watch = await scene.watch("Lane Diver");
    const browsing = await scene.shopper("Never Bought");
    const started = lane.stats().started;
    const form = () => {
      const sent = photoForm({ rating: "5", title: "Lovely", text: "Never owned it." });
      sent.append("image", new Blob([Buffer.from("not a photo at all")], { type: "image/png" }), "wrist.png");
      return sent;
    };
    const viaApi = await api.api("POST", `/products/${watch}/reviews`, { body: form(), token: browsing.token });
    expect(viaApi.status).toBe(403);
    const browser = await signedInClient(server.baseUrl, browsing.email, browsing.password);
    const viaPage = await browser.postMultipart(`/products/${watch}/review`, form());
    expect(viaPage.status).toBe(403);
    const unread = await answerBeforeTheBody(
      `${server.baseUrl}/api/v1/products/${watch}/reviews`,
      { authorization: `Bearer ${browsing.token}` },
      "image",
    );
    expect(unread.status).toBe(403);
    expect(lane.stats().started).toBe(started);
    expect(await server.database.db("reviews").where({ product_id: watch })).toHaveLength(0);
  });
});

describe("the photo lane", () => {
  it("refuses an upload with 503 and Retry-After while its queue is full, and takes it once the lane drains", async () => {
    const { orderId, token, browser } = await transferOrder();
    const screenshot = await plainImage(600, 1200, "png");
    // One photo at work and one waiting: the lane is full.
    let release = () => {};
    const atWork = lane.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = lane.run(async () => {});
    expect(lane.stats()).toMatchObject({ running: true, waiting: 1 });

    const viaApi = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("MEEZAN 77", screenshot),
      token,
    });
    expect(viaApi.status).toBe(503);
    expect(viaApi.body).toEqual({ success: false, message: "Service temporarily unavailable" });
    expect(Number(viaApi.headers.get("retry-after"))).toBeGreaterThan(0);

    const viaPage = await browser.postMultipart(`/my-orders/${orderId}`, referenceForm("MEEZAN 77", screenshot));
    expect(viaPage.status).toBe(503);
    expect(Number(viaPage.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await viaPage.text();
    expect(page).toMatch(/id="field-screenshot-error"[^>]*>Too many photos are being processed/);
    expect(page).toContain('value="MEEZAN 77"');
    expect(await paymentOf(orderId)).toMatchObject({ paymentStatus: "awaiting", paymentReference: null });

    // A reference without a screenshot needs no lane.
    const plain = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: { reference: "MEEZAN 77" },
      token,
    });
    expect(plain.status).toBe(200);

    release();
    await Promise.all([atWork, waiting]);
    const accepted = await api.api("POST", `/orders/${orderId}/payment-reference`, {
      body: referenceForm("MEEZAN 78", screenshot),
      token,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.payment).toMatchObject({ reference: "MEEZAN 78", screenshot: true });
  });
});
