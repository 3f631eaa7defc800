/**
 * The API keeps the contract it serves (GET /api/v1/openapi.json, docs/api.md): the document is
 * valid OpenAPI 3.1 with the real envelope, and every call, walked from the document itself,
 * answers only statuses, headers and bodies that the document gives it: conditional reads (ETag,
 * If-None-Match, 304) on every GET, and every refusal before a handler runs (the guard, a body
 * that is not JSON, too large or not UTF-8). TestClient.api checks each answer
 * (tests/support/api-contract.ts), as it does for every other API test.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractOf } from "../support/api-contract";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { plainImage } from "../support/photos";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;
/** An id of each kind, for the calls whose path names one. */
const ids: Record<string, string> = {};

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@contract.test", password: "adminpass1", role: "admin" });
  ids.user = await insertUser(server, { name: "Customer", email: "customer@contract.test", password: "customerpass1" });
  adminToken = await apiToken(client, "admin@contract.test", "adminpass1");
  customerToken = await apiToken(client, "customer@contract.test", "customerpass1");
  [ids.product] = await insertProducts(server, [{ name: "Contract Chronograph", stock: 10, price: 20000 }]);

  // Every list holds something, so each shape is met: a code, an order placed with it, delivered
  // and with a return asked for.
  const code = await client.api("POST", "/discounts", {
    body: { code: "CONTRACT10", type: "percent", value: 10, firstOrderOnly: false, active: true },
    token: adminToken,
  });
  expect(code.status).toBe(201);
  ids.discount = code.body.data._id;
  expect(
    (await client.api("POST", "/cart", { body: { productId: ids.product, quantity: 2 }, token: customerToken })).status,
  ).toBe(200);
  const order = await client.api("POST", "/orders", {
    body: { address, discountCode: "contract10" },
    token: customerToken,
  });
  expect(order.status).toBe(201);
  ids.order = order.body.data._id;
  // A screenshot of a transfer for it, stored as the payment flow stores one, so that the call
  // that downloads it answers the file (who may see it does not depend on the payment).
  const screenshot = await plainImage(120, 240, "webp");
  await server.database
    .db("payment_screenshots")
    .insert({ orderId: ids.order, image: screenshot, width: 120, height: 240, thumbnail: screenshot });
  const delivered = await client.api("PATCH", `/orders/${ids.order}/status`, {
    body: { status: "Delivered" },
    token: adminToken,
  });
  expect(delivered.status).toBe(200);
  const asked = await client.api("POST", `/orders/${ids.order}/returns`, {
    body: { items: [{ productId: ids.product, quantity: 1 }], reason: "Changed my mind" },
    token: customerToken,
  });
  expect(asked.status).toBe(201);
  ids.return = asked.body.data._id;
});
afterAll(async () => {
  await server?.close();
});

type Operation = { security?: unknown[]; responses: Record<string, unknown>; "x-access": string };

/** Every call of the served document: its method, its path with real ids, and who may make it. */
async function documentedCalls() {
  const { document } = await contractOf(server.baseUrl);
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations as Record<string, Operation>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      address: withIds(path),
      access: operation["x-access"],
    })),
  );
}

/** `/orders/{id}/returns` → `/orders/<the order's id>/returns`: the id of the kind the path names. */
function withIds(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === "userId") return ids.user!;
    if (name === "productId") return ids.product!;
    const kind = { products: "product", orders: "order", returns: "return", discounts: "discount" }[
      path.split("/")[1]!
    ];
    return ids[kind ?? ""] ?? name;
  });
}

const tokenFor = (access: string) =>
  access === "admin" ? adminToken : access === "signed-in" ? customerToken : undefined;

describe("the served OpenAPI document", () => {
  it("is valid OpenAPI 3.1, with the envelope's pagination and meta spelled out", async () => {
    // contractOf validates the document against the OpenAPI 3.1 schema, and throws when it is not.
    const { document } = await contractOf(server.baseUrl);
    const ordersList = (document.paths["/orders"] as any).get.responses["200"].content["application/json"].schema;
    expect(ordersList.required).toEqual(["success", "message", "data", "pagination", "meta"]);
    expect(ordersList.additionalProperties).toBe(false);
    expect(ordersList.properties.pagination).toMatchObject({
      type: "object",
      required: ["page", "limit", "total", "totalPages"],
      properties: { page: { type: "integer" }, totalPages: { type: "integer" } },
    });
    expect(ordersList.properties.meta).toMatchObject({
      type: "object",
      required: ["count", "totalAmount"],
      properties: { count: { type: "integer" }, totalAmount: { type: "number" } },
    });
    // A call that answers one object has neither.
    const oneOrder = (document.paths["/orders/{id}"] as any).get.responses["200"].content["application/json"].schema;
    expect(oneOrder.required).toEqual(["success", "message", "data"]);
    expect(Object.keys(oneOrder.properties)).toEqual(["success", "message", "data"]);
    expect((document.components.schemas as any).Error).toMatchObject({
      required: ["success", "message"],
      properties: { success: { const: false }, errors: { type: "array" } },
    });
  });
});

describe("conditional reads", () => {
  it("every GET answers an ETag and, sent back in If-None-Match, 304 with no body while the answer is the same, as the document says", async () => {
    const reads = (await documentedCalls()).filter((call) => call.method === "GET");
    expect(reads.map((read) => read.path)).toEqual(
      expect.arrayContaining(["/products", "/products/{id}", "/cart", "/orders/me", "/orders/{id}", "/returns"]),
    );
    // Cache-Control set: fetch would add no-cache to a request with If-None-Match (the Fetch
    // standard), and Express answers such a request in full, as it would a browser's reload.
    const conditional = (etag: string) => ({ "if-none-match": etag, "cache-control": "max-age=0" });
    for (const read of reads) {
      const token = tokenFor(read.access);
      const first = await client.api("GET", read.address, { token });
      expect(first.status, `GET ${read.address}: ${first.text}`).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag, `GET ${read.address}`).toBeTruthy();
      const again = await client.api("GET", read.address, { token, headers: conditional(etag!) });
      expect(again.status, `GET ${read.address} with If-None-Match`).toBe(304);
      expect(again.text).toBe("");
    }

    // Once the answer has changed, it comes in full with a new ETag.
    const before = await client.api("GET", "/cart", { token: customerToken });
    const etag = before.headers.get("etag")!;
    const added = await client.api("POST", "/cart", {
      body: { productId: ids.product, quantity: 1 },
      token: customerToken,
    });
    expect(added.status).toBe(200);
    const after = await client.api("GET", "/cart", { token: customerToken, headers: conditional(etag) });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body.data.cart.items).toHaveLength(1);
  });

  it("lets a browser on an allowed origin send If-None-Match and read the ETag (and send an Idempotency-Key)", async () => {
    const friendly = await startTestServer({ CORS_ORIGINS: "https://app.example.com" });
    try {
      const preflight = await fetch(`${friendly.baseUrl}/api/v1/cart`, {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "GET",
          "access-control-request-headers": "authorization,if-none-match",
        },
      });
      const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "if-none-match", "idempotency-key"]));
      const read = await fetch(`${friendly.baseUrl}/api/v1/products`, {
        headers: { origin: "https://app.example.com" },
      });
      const exposed = (read.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(["etag", "retry-after"]));
    } finally {
      await friendly.close();
    }
  });
});

/**
 * A call with any body, a GET's too (fetch sends none with a GET), its answer checked against the
 * document as TestClient.api checks its own.
 */
async function sendRaw(method: string, address: string, headers: Record<string, string>, body?: string) {
  const answer = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}/api/v1${address}`,
      {
        method,
        // Framed by its length: Node sends a GET's or DELETE's body unframed otherwise.
        headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === "string") answerHeaders.set(name, value);
          }
          resolve({ status: response.statusCode!, headers: answerHeaders, text });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
  const problems = (await contractOf(server.baseUrl)).problemsWith({ method, path: address, ...answer });
  expect(problems, `${method} ${address}`).toEqual([]);
  return answer;
}

describe("refusals before a handler runs", () => {
  it("answers a guest, a customer on an admin's call, bodies that are not JSON, too large or not UTF-8, and headers too large, only as the document says", async () => {
    const calls = await documentedCalls();
    expect(calls.length).toBeGreaterThan(30);
    const json = "application/json";
    for (const call of calls) {
      const context = `${call.method} ${call.path}`;
      if (call.access !== "public") expect((await sendRaw(call.method, call.address, {})).status, context).toBe(401);
      if (call.access === "admin") {
        const customer = await sendRaw(call.method, call.address, { authorization: `Bearer ${customerToken}` });
        expect(customer.status, context).toBe(403);
      }
      const token = tokenFor(call.access);
      const refusals: { what: string; body?: string; headers: Record<string, string>; status: number }[] = [
        { what: "a body that is not JSON", body: "{not json", headers: { "content-type": json }, status: 400 },
        {
          what: "a body over 10 kB",
          body: JSON.stringify({ note: "x".repeat(11 * 1024) }),
          headers: { "content-type": json },
          status: 413,
        },
        {
          what: "a body that is not UTF-8",
          body: "{}",
          headers: { "content-type": "application/json; charset=latin1" },
          status: 415,
        },
        // Refused by Node's parser before Express (server/http/http-server.ts).
        { what: "headers over 16 kB", headers: { "x-padding": "x".repeat(20 * 1024) }, status: 431 },
      ];
      for (const { what, body, headers, status } of refusals) {
        const answer = await sendRaw(
          call.method,
          call.address,
          { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body,
        );
        expect(answer.status, `${context} with ${what}`).toBe(status);
      }
    }
  });
});
