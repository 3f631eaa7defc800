/**
 * Hostile input, property-based (fast-check): random and malformed forms, queries and ids thrown
 * at every page form action and every page's GET (read from app/routes.ts and the build); the API
 * is hostile-input-api.test.ts.
 *
 * Whatever arrives, the answer is a form refusal, a page or a redirect, never a 500 and never a
 * crash, and a refused request leaves the database as it was.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import {
  address,
  admin,
  customer,
  hostileId,
  hostileQuery,
  hostileString,
  ids,
  mutatedOne,
  product,
  requestPath,
  PROPERTY_TIMEOUT,
  RUNS,
  server,
  STACK_OR_SQL,
  withHostileInputStore,
} from "../support/hostile-input";
import { pageRoutes } from "../support/page-routes";

withHostileInputStore();

/** The names the store's forms use, so that hostile values reach the fields the actions read. */
const FORM_FIELDS = [
  "name",
  "email",
  "password",
  "confirmPassword",
  "currentPassword",
  "newPassword",
  "phone",
  "street",
  "city",
  "state",
  "zipCode",
  "country",
  "intent",
  "productId",
  "quantity",
  "then",
  "returnTo",
  "redirectTo",
  "checkoutKey",
  "orderId",
  "status",
  "courier",
  "trackingNumber",
  "shipUnconfirmed",
  "role",
  "description",
  "price",
  "category",
  "imageUrl",
  "stock",
  "brand",
  "subject",
  "message",
  "discountCode",
  "discountId",
  "code",
  "type",
  "value",
  "firstOrderOnly",
  "active",
  "startsAt",
  "endsAt",
  "maxUses",
  "reason",
  "note",
  "rejectionReason",
  "method",
  "reference",
  "token",
  "alertId",
  "messageId",
  "userId",
  "website",
  "image",
  "removeImage",
];
const hostileForm = fc.dictionary(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FORM_FIELDS) }, hostileString),
  fc.oneof(
    hostileString,
    fc.constantFrom(
      "add",
      "set",
      "remove",
      "Pending",
      "Cancelled",
      "admin",
      "Men",
      "confirm",
      "unconfirm",
      "TCS",
      "apply",
      "approve",
      "reject",
      "receive",
      "deactivate",
      "activate",
      "on",
      "FIRST10",
    ),
  ),
  { maxKeys: 8 },
);

const discountForm = {
  code: "FUZZ20",
  type: "fixed",
  value: "200",
  firstOrderOnly: "on",
  active: "on",
  startsAt: "2026-12-01T10:00",
  endsAt: "2026-12-31T10:00",
  maxUses: "5",
};

/** Good forms to start from, one field made hostile at a time (see VALID_BODIES in hostile-input-api.test.ts). */
const VALID_FORMS = (): Record<string, Record<string, string>> => ({
  "/login": { email: "customer@hostile.test", password: "not-the-password", redirectTo: "/profile" },
  "/signup": {
    name: "Fuzz Shopper",
    email: "fuzz.shopper@hostile.test",
    password: "password123",
    confirmPassword: "password123",
    redirectTo: "/",
  },
  "/cart": { intent: "add", productId: ids.productId, quantity: "1", then: "cart", returnTo: "/products" },
  "/checkout": { ...address, phone: "0300-1234567", checkoutKey: "fuzz-key", discountCode: "FUZZ5", intent: "apply" },
  "/my-orders/:orderId/return": { [`quantity-${ids.productId}`]: "1", reason: "Wrong item", note: "Fuzz note" },
  "/admin/discounts": { intent: "deactivate", discountId: ids.discountId },
  "/admin/discounts/new": discountForm,
  "/admin/discounts/:discountId/edit": discountForm,
  "/admin/returns/:returnId": { intent: "receive", method: "Easypaisa", reference: "EP-1" },
  "/profile/edit": {
    name: "Hostile Customer",
    email: "customer@hostile.test",
    phone: "",
    ...address,
    currentPassword: "not-the-password",
  },
  "/profile/password": {
    currentPassword: "not-the-password",
    newPassword: "password123",
    confirmPassword: "password123",
  },
  "/admin/orders": { intent: "status", orderId: ids.orderId, status: "Delivered", returnTo: "/admin/orders" },
  "/admin/orders/:orderId/ship": {
    courier: "TCS",
    trackingNumber: "TCS-12345",
    shipUnconfirmed: "true",
    returnTo: "/admin/orders",
  },
  "/admin/products/new": Object.fromEntries(Object.entries(product).map(([key, value]) => [key, String(value)])),
  "/admin/products/:productId/edit": Object.fromEntries(
    Object.entries(product).map(([key, value]) => [key, String(value)]),
  ),
  "/admin/users/new": { name: "Fuzz Admin", email: "fuzz.admin2@hostile.test", password: "password123" },
  "/admin/users/:userId/role": { role: "customer" },
  "/admin/users": { userId: ids.customerId, returnTo: "/admin/users?role=customer" },
  "/admin/outbox": { messageId: "00000000-0000-4000-8000-000000000000" },
  "/forgot-password": { email: "customer@hostile.test" },
  "/reset-password": { token: "not-a-real-token", password: "password123", confirmPassword: "password123" },
  "/unsubscribe": { token: "not-a-real-token" },
  "/confirm-email": { token: "not-a-real-token" },
  "/products/:productId": { email: "fuzz.alert@hostile.test" },
  "/profile": { alertId: "00000000-0000-4000-8000-000000000000" },
});

type FormBody = { contentType?: string; body: string | FormData };
const formBody = (fields: Record<string, string>): fc.Arbitrary<FormBody> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constant({
        contentType: "application/x-www-form-urlencoded",
        body: new URLSearchParams(fields).toString(),
      }),
    },
    fc.constant({
      body: (() => {
        // multipart, with a file where text belongs
        const data = new FormData();
        for (const [key, value] of Object.entries(fields)) data.append(key, value);
        data.append("name", new Blob(["<script>alert(1)</script>"], { type: "text/html" }), "evil.html");
        return data;
      })(),
    }),
    // multipart, with a "photo" that is random bytes, sometimes behind an image's first bytes
    fc
      .tuple(
        fc.constantFrom(
          [],
          [0xff, 0xd8, 0xff],
          [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
          [...Buffer.from("RIFF0000WEBP")],
        ),
        fc.uint8Array({ maxLength: 3000 }),
      )
      .map(([magic, junk]) => {
        const data = new FormData();
        for (const [key, value] of Object.entries(fields)) data.append(key, value);
        data.append("image", new Blob([new Uint8Array([...magic, ...junk])], { type: "image/jpeg" }), "photo.jpg");
        return { body: data } as FormBody;
      }),
    fc.constantFrom<FormBody>(
      { contentType: "application/x-www-form-urlencoded", body: "email=%E0%A4%A&password=%" },
      { contentType: "application/x-www-form-urlencoded", body: "a=1&a=2&a[]=3&__proto__[x]=1" },
      { contentType: "application/json", body: JSON.stringify(fields) },
      { contentType: "application/json", body: "{not json" },
      { contentType: "text/plain", body: "name=x" },
      { contentType: "multipart/form-data; boundary=nope", body: "--nope\r\nbroken" },
      { contentType: "multipart/form-data", body: "no boundary at all" },
      { contentType: "application/x-www-form-urlencoded", body: "x=" + "y".repeat(70 * 1024) },
      { contentType: undefined, body: "" },
    ),
  );

/** Who posts: admin pages as the admin, log-in and sign-up as a guest, the rest as the customer. */
function posterFor(path: string): TestClient {
  if (path.startsWith("/admin")) return admin;
  if (["/login", "/signup", "/logout"].includes(path)) return new TestClient(server.baseUrl);
  return customer;
}

const realPageId = (name: string) =>
  (
    ({
      productId: ids.productId,
      orderId: ids.orderId,
      userId: ids.customerId,
      discountId: ids.discountId,
      returnId: ids.returnId,
      file: "products-1.xml",
      "*": "nowhere",
    }) as Record<string, string>
  )[name] ?? "x";

/** A hostile value for each parameter a page's path has (realPageId's names). */
const hostilePathIds = fc.record({
  productId: hostileId,
  orderId: hostileId,
  userId: hostileId,
  discountId: hostileId,
  returnId: hostileId,
  file: hostileId,
  "*": hostileId,
});

describe("every page form under hostile input", PROPERTY_TIMEOUT, () => {
  it("has form actions to test (read from app/routes.ts)", async () => {
    expect((await pageRoutes()).filter((page) => page.hasAction).length).toBeGreaterThanOrEqual(12);
  });

  it("answers each form action with a form refusal or a redirect, never 5xx, and a refusal changes nothing", async () => {
    const actions = (await pageRoutes()).filter((page) => page.hasAction);
    const examples = VALID_FORMS();
    const asText = (form: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(form).map(([key, value]) => [
          key,
          typeof value === "string" ? value : (JSON.stringify(value) ?? ""),
        ]),
      );
    const request = fc.constantFrom(...actions).chain((page) =>
      fc.record({
        page: fc.constant(page),
        // Deletions get hostile ids only, so that the fixtures stay.
        hostileIds: hostilePathIds,
        useRealIds: fc.boolean(),
        form: (examples[page.path]
          ? fc.oneof(hostileForm, mutatedOne(examples[page.path]!).map(asText))
          : hostileForm
        ).chain(formBody),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ page, hostileIds, useRealIds, form }) => {
        const realAllowed = useRealIds && !page.path.endsWith("/delete");
        const path = requestPath(page.path, (name) =>
          realAllowed ? realPageId(name) : hostileIds[name as keyof typeof hostileIds],
        );
        const client = posterFor(page.path);
        const before = await databaseFingerprint(server);
        const raw = await rawPost(client, path, form);
        const text = await raw.text();
        const context = `POST ${path.slice(0, 200)} (${form.contentType ?? "multipart"}) ${typeof form.body === "string" ? form.body.slice(0, 200) : "[FormData]"} → ${raw.status}`;
        expect(raw.status, `${context} ${text.slice(0, 500)}`).toBeLessThan(500);
        expect(STACK_OR_SQL.test(text.replace(/<script[\s\S]*?<\/script>/g, "")), `${context}: leaks internals`).toBe(
          false,
        );
        if (raw.status >= 400) {
          expect(await databaseFingerprint(server), `${context}: a refused form changed the database`).toEqual(before);
        }
      }),
      { numRuns: RUNS * 6 },
    );
    // Still answering after all of it.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });

  it("refuses page posts that are not small urlencoded forms before any action reads them", async () => {
    const post = (body: BodyInit, headers: Record<string, string>, extra: RequestInit = {}) =>
      fetch(`${server.baseUrl}/login`, {
        method: "POST",
        headers: { origin: server.baseUrl, ...headers },
        body,
        redirect: "manual",
        ...extra,
      });
    const before = await databaseFingerprint(server);
    // A body in chunks has no length to check: refused, not read whole.
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`email=${"x".repeat(200 * 1024)}`));
        controller.close();
      },
    });
    const chunked = await post(chunks, { "content-type": "application/x-www-form-urlencoded" }, {
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
    expect(
      (await post(`email=${"x".repeat(65 * 1024)}`, { "content-type": "application/x-www-form-urlencoded" })).status,
    ).toBe(413);
    for (const [contentType, body] of [
      ["application/json", '{"email":"a@b.c"}'],
      ["text/plain", "email=a"],
      ["multipart/form-data; boundary=nope", "--nope\r\nbroken"],
      ["", ""],
    ] as const) {
      const response = await post(body, contentType ? { "content-type": contentType } : {});
      expect(response.status, contentType).toBe(415);
    }
    // A form of the store's own kind still works, with an empty body too.
    expect((await post("email=&password=", { "content-type": "application/x-www-form-urlencoded" })).status).toBe(400);
    expect((await post("", { "content-type": "application/x-www-form-urlencoded" })).status).toBe(400);
    expect(await databaseFingerprint(server)).toEqual(before);
  });

  it("answers every page's GET with hostile queries and ids with a page, a redirect or 404, never 5xx", async () => {
    const all = await pageRoutes();
    const request = fc.record({
      page: fc.constantFrom(...all),
      ids: hostilePathIds,
      query: hostileQuery,
      asAdmin: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ page, ids: pageIds, query, asAdmin }) => {
        const path = requestPath(page.path, (name) => pageIds[name as keyof typeof pageIds], query);
        const response = await (asAdmin ? admin : customer).get(path);
        const text = await response.text();
        expect(response.status, `GET ${path.slice(0, 300)} ${text.slice(0, 300)}`).toBeLessThan(500);
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

/** A same-origin POST with the body exactly as given (the TestClient's cookies included). */
async function rawPost(client: TestClient, path: string, form: FormBody): Promise<Response> {
  const headers: Record<string, string> = { origin: server.baseUrl };
  if (form.contentType) headers["content-type"] = form.contentType;
  const cookie = client.cookieHeader();
  if (cookie) headers.cookie = cookie;
  return fetch(server.baseUrl + path, { method: "POST", headers, body: form.body, redirect: "manual" });
}
