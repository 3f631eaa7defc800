/**
 * Hostile input, property-based (fast-check): random and malformed bodies, queries, ids and
 * headers thrown at every /api/v1 call (read from server/api-routes.ts, with their fields read
 * from their yup schemas) and every page form action (read from app/routes.ts and the build).
 *
 * Whatever arrives, the answer is a 4xx with the API's error envelope or a form refusal, never
 * a 500 and never a crash, and a refused request leaves the database as it was.
 */
import fc from "fast-check";
import type * as yup from "yup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../../app/routes";
import { apiRoutes } from "../../server/http/api/api-routes";
import type { ApiRoute } from "../../server/http/api-route";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { contractOf } from "../support/api-contract";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { loadServerBuild, startTestServer, type TestServer } from "../support/test-server";

/** Runs per call or form: enough to find shapes nobody thought of, bounded in time (HOSTILE_RUNS to search harder). */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 40);
/** A few seconds each alone; room for a busy machine running the whole suite. */
const PROPERTY_TIMEOUT = { timeout: 120_000 };

let server: TestServer;
let ids: {
  productId: string;
  customerId: string;
  adminId: string;
  orderId: string;
  deliveredOrderId: string;
  returnId: string;
  discountId: string;
};
let customer: TestClient;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  const passwordHash = await hashPassword("hostilepass1", 4);
  const [adminRow] = await db("users")
    .insert({ name: "Hostile Admin", email: "admin@hostile.test", passwordHash, role: "admin" })
    .returning("id");
  const [customerRow] = await db("users")
    .insert({ name: "Hostile Customer", email: "customer@hostile.test", passwordHash })
    .returning("id");
  const [productId, spare] = await insertProducts(server, [
    { name: "Hostile Watch", stock: 40 },
    { name: "Spare Watch", stock: 40 },
  ]);
  await server.services.cart.addItem(customerRow.id, { productId: spare, quantity: 1 });
  const order = await server.services.checkout.placeOrder(customerRow.id, {
    address: { street: "1 Safe Street", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
  });
  // A delivered order with a return asked for, so that returns' calls reach their rules.
  await server.services.cart.addItem(customerRow.id, { productId, quantity: 5 });
  const delivered = await server.services.checkout.placeOrder(customerRow.id, {
    address: { street: "1 Safe Street", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
  });
  await server.services.fulfilment.updateStatus(delivered._id, { status: "Delivered" });
  const orderReturn = await server.services.returns.requestReturn(customerRow.id, delivered._id, {
    items: [{ productId, quantity: 1 }],
    reason: "Other",
  });
  const discount = await server.services.discounts.createCode({ code: "FUZZ5", type: "percent", value: 5 });
  // The customer keeps a line in the cart, so that a refused change to it would show.
  await server.services.cart.addItem(customerRow.id, { productId, quantity: 2 });
  ids = {
    productId: productId!,
    customerId: customerRow.id,
    adminId: adminRow.id,
    orderId: order._id,
    deliveredOrderId: delivered._id,
    returnId: orderReturn._id,
    discountId: discount._id,
  };
  customer = await signedIn("customer@hostile.test");
  admin = await signedIn("admin@hostile.test");
});
afterAll(async () => {
  await server?.close();
});

async function signedIn(email: string) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", { email, password: "hostilepass1" });
  expect(response.status).toBe(303);
  return client;
}

// ---- What hostile input looks like ----

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%00",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1",
  "1; DROP TABLE users; --",
  "../../../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "..\\..\\windows\\win.ini",
  "\\",
  "%",
  "_",
  "{{7*7}}",
  "${7*7}",
  "𝕎𝕒𝕢𝕥 ⌚ وقت",
  "\uFEFF\u202E\u200B",
  "\r\nSet-Cookie: x=1",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "1.5",
  "1e309",
  "0x10",
  "9".repeat(400),
  "null",
  "undefined",
  "true",
  "__proto__",
  "constructor",
  "[]",
  "{}",
  "x".repeat(6000),
];

/** A control character PostgreSQL cannot store in text, hidden inside ordinary text. */
const withNul = (arbitrary: fc.Arbitrary<string>) =>
  fc
    .tuple(arbitrary, fc.nat())
    .map(([text, at]) => `${text.slice(0, at % (text.length + 1))}\u0000${text.slice(at % (text.length + 1))}`);

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  withNul(fc.string({ maxLength: 20 })),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary-ascii", maxLength: 300 }),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 0.1 + 0.2),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor", "$ne", "$gt")), hostileString, {
    maxKeys: 3,
  }),
  fc.jsonValue({ maxDepth: 3 }),
);
const hostileId = fc.oneof(
  fc.uuid(),
  hostileString.filter((value) => value.length > 0 && value.length < 2000),
);

type SchemaDescription = { type: string; fields?: Record<string, SchemaDescription> };

/** A body shaped like the schema's fields (each one optional), every value hostile, plus strangers. */
function bodyFor(schema: yup.AnyObjectSchema | undefined): fc.Arbitrary<unknown> {
  const fromDescription = (description: SchemaDescription): fc.Arbitrary<unknown> => {
    if (description.type !== "object" || !description.fields) return hostileValue;
    const fields = Object.fromEntries(
      Object.entries(description.fields).map(([name, field]) => [name, fc.oneof(fromDescription(field), hostileValue)]),
    );
    return fc
      .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(hostileString, hostileValue, { maxKeys: 2 }))
      .map(([known, extra]) => ({ ...extra, ...known }));
  };
  const shaped = schema ? fromDescription(schema.describe() as SchemaDescription) : fc.constant({});
  return fc.oneof({ weight: 4, arbitrary: shaped }, hostileValue);
}

/**
 * Good requests to start from: one field at a time is made hostile, so that the hostile value
 * gets past the other checks and reaches the deepest code (the database, bcrypt, the stock).
 * A call without an example here is still fuzzed with wholly random bodies.
 */
const address = { street: "1 Safe Street", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const product = {
  name: "Fuzz Watch",
  description: "Steel",
  price: 100,
  category: "Men",
  imageUrl: "/images/x.svg",
  stock: 1,
  brand: "",
};
const discount = {
  code: "FUZZ10",
  type: "percent",
  value: 10,
  firstOrderOnly: false,
  active: true,
  startsAt: "2026-12-01T10:00:00+05:00",
  endsAt: "2026-12-31T10:00:00Z",
  maxUses: 5,
};
const VALID_BODIES = (): Record<string, Record<string, unknown>> => ({
  "POST /auth/register": { name: "Fuzz Person", email: "fuzz@hostile.test", password: "password123" },
  "POST /auth/login": { email: "customer@hostile.test", password: "not-the-password" },
  "PUT /auth/update-profile": {
    name: "Hostile Customer",
    email: "customer@hostile.test",
    phone: "0300 1234567",
    address,
    currentPassword: "not-the-password",
  },
  "PUT /auth/change-password": { currentPassword: "not-the-password", newPassword: "password123" },
  "POST /auth/forgot-password": { email: "customer@hostile.test" },
  "POST /auth/reset-password": { token: "not-a-real-token", password: "password123" },
  "POST /products/:id/notify": { email: "fuzz.alert@hostile.test" },
  "POST /products": product,
  "PUT /products/:id": product,
  "POST /cart": { productId: ids.productId, quantity: 1 },
  "PUT /cart": { productId: ids.productId, quantity: 1 },
  "POST /orders": { address, phone: "0300-1234567", discountCode: "fuzz5" },
  "POST /orders/:id/returns": {
    items: [{ productId: ids.productId, quantity: 1 }],
    reason: "Damaged or defective",
    note: "Fuzz note",
  },
  "PATCH /returns/:id": { status: "Received", refund: { method: "JazzCash", reference: "JC-1" } },
  "POST /discounts": discount,
  "PUT /discounts/:id": discount,
  "PATCH /orders/:id/status": { status: "Shipped", courier: "TCS", trackingNumber: "TCS-12345" },
  "POST /users/create-admin": { name: "Fuzz Admin", email: "fuzz.admin@hostile.test", password: "password123" },
  "PUT /users/:userId/role": { role: "customer" },
});

/** The example with one field (nested ones too) replaced by a hostile value or by itself with a NUL inside. */
function mutatedOne(example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const paths: string[][] = Object.entries(example).flatMap(([key, value]) =>
    value && typeof value === "object" ? [[key], ...Object.keys(value).map((inner) => [key, inner])] : [[key]],
  );
  return fc
    .tuple(fc.constantFrom(...paths), hostileValue, fc.boolean(), fc.nat())
    .map(([path, hostile, nulInside, at]) => {
      const copy = structuredClone(example);
      const parent = path.length === 2 ? (copy[path[0]!] as Record<string, unknown>) : copy;
      const key = path[path.length - 1]!;
      const original = String(parent[key]);
      const cut = at % (original.length + 1);
      parent[key] = nulInside ? `${original.slice(0, cut)}\u0000${original.slice(cut)}` : hostile;
      return copy;
    });
}

/** How the body travels: JSON, or something a JSON API must refuse politely. */
type RawBody = { contentType?: string; body?: string | FormData };
const rawBody = (value: unknown): fc.Arbitrary<RawBody> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ contentType: "application/json", body: JSON.stringify(value) ?? "null" }) },
    fc.constant({ contentType: "application/json", body: JSON.stringify(value)?.slice(0, -1) ?? "{" }),
    fc.constantFrom<RawBody>(
      { contentType: "application/json", body: "{not json" },
      { contentType: "application/json", body: '{"a":' },
      { contentType: "application/json", body: '"just a string"' },
      { contentType: "application/json", body: "12345" },
      { contentType: "application/json", body: "null" },
      { contentType: "application/json", body: "[]" },
      { contentType: "application/json", body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
      { contentType: "application/json", body: `{"name":"${"x".repeat(11 * 1024)}"}` },
      { contentType: "application/json; charset=latin1", body: "{}" },
      { contentType: "application/json; charset=utf-16", body: "{}" },
      { contentType: "text/plain", body: "hello" },
      { contentType: "application/x-www-form-urlencoded", body: "name=x&email=%E0%A4%A" },
      {
        contentType: "application/xml",
        body: "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
      },
      { contentType: undefined, body: "{}" },
      { contentType: "application/json", body: undefined },
    ),
  );

const hostileQuery = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(
        "page",
        "limit",
        "search",
        "category",
        "sort",
        "status",
        "role",
        "from",
        "to",
        "paper",
        "returnTo",
        "page[]",
        "limit[$gt]",
      ),
      hostileString,
    ),
    fc.oneof(hostileString, hostileNumber.map(String)),
  ),
  { maxLength: 5 },
);

/** A good list query (every parameter the list calls read) with one value made hostile. */
const mutatedQuery: fc.Arbitrary<[string, string][]> = mutatedOne({
  page: "1",
  limit: "10",
  search: "watch",
  category: "Men",
  sort: "price",
  status: "Pending",
  role: "customer",
  from: "2026-11-01",
  to: "2026-11-30",
}).map((query) =>
  Object.entries(query).map(([key, value]) => [key, typeof value === "string" ? value : (JSON.stringify(value) ?? "")]),
);

const STACK_OR_SQL =
  /\bat [\w.<>]+ \(|node_modules|TypeError|ReferenceError|SyntaxError|knex|\bpg_|violates|relation "|syntax error at/i;

/** The API's error envelope: success false, a message in words, and field errors when any. */
function expectErrorEnvelope(context: string, body: unknown) {
  expect(body, context).toBeTypeOf("object");
  const envelope = body as { success: unknown; message: unknown; errors?: unknown };
  expect(
    Object.keys(envelope).every((key) => ["success", "message", "errors"].includes(key)),
    `${context}: keys ${Object.keys(envelope)}`,
  ).toBe(true);
  expect(envelope.success, context).toBe(false);
  expect(typeof envelope.message === "string" && envelope.message.length > 0, context).toBe(true);
  expect(STACK_OR_SQL.test(envelope.message as string), `${context}: leaks ${envelope.message}`).toBe(false);
  if (envelope.errors !== undefined) {
    expect(Array.isArray(envelope.errors), context).toBe(true);
    for (const error of envelope.errors as { field: unknown; message: unknown }[]) {
      expect(typeof error.field, context).toBe("string");
      expect(typeof error.message, context).toBe("string");
    }
  }
}

// ---- The API ----

/** Who calls: the access level's own caller, so that the input reaches validation and beyond. */
async function tokenFor(route: ApiRoute): Promise<string | undefined> {
  if (route.access === "public") return undefined;
  return (await server.services.accounts.issueToken(route.access === "admin" ? ids.adminId : ids.customerId)).token;
}

/** Ids for the path: real ones (so bodies reach the stored thing) or hostile ones, but never a real id to delete. */
function pathIds(route: ApiRoute): fc.Arbitrary<Record<string, string>> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant({});
  const real = (name: string) =>
    name === "userId"
      ? ids.customerId
      : route.path.endsWith("/returns")
        ? ids.deliveredOrderId
        : route.path.startsWith("/orders")
          ? ids.orderId
          : route.path.startsWith("/returns")
            ? ids.returnId
            : route.path.startsWith("/discounts")
              ? ids.discountId
              : ids.productId;
  return fc.record(
    Object.fromEntries(
      names.map((name) => [name, route.method === "delete" ? hostileId : fc.oneof(fc.constant(real(name)), hostileId)]),
    ),
  );
}

describe("every /api/v1 call under hostile input", PROPERTY_TIMEOUT, () => {
  it.each(apiRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    "%s answers 4xx with the envelope (never 5xx), and a refusal changes nothing",
    async (_name, route) => {
      const example = VALID_BODIES()[`${route.method.toUpperCase()} ${route.path}`];
      const bodies = example
        ? fc.oneof(bodyFor(route.body), mutatedOne(example), mutatedOne(example))
        : bodyFor(route.body);
      const request = fc.record({
        params: pathIds(route),
        query: fc.oneof(hostileQuery, mutatedQuery),
        raw: bodies.chain(rawBody),
        idempotencyKey: fc.option(hostileString, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, raw, idempotencyKey }) => {
          let path =
            "/api/v1" + route.path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(params[name]!));
          const search = new URLSearchParams(query).toString();
          if (search) path += `?${search}`;
          const token = await tokenFor(route);
          const headers: Record<string, string> = { accept: "application/json" };
          if (token) headers.authorization = `Bearer ${token}`;
          const hasBody = route.method !== "get";
          if (hasBody && raw.contentType) headers["content-type"] = raw.contentType;
          if (idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(idempotencyKey))
            headers["idempotency-key"] = idempotencyKey;
          const before = await databaseFingerprint(server);
          const response = await fetch(server.baseUrl + path, {
            method: route.method.toUpperCase(),
            headers,
            body: hasBody ? raw.body : undefined,
          });
          const text = await response.text();
          const context = `${route.method.toUpperCase()} ${path.slice(0, 200)} ${String(raw.body).slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
          expect(response.status, context).toBeLessThan(500);
          expect(response.headers.get("content-type"), context).toMatch(/^application\/json/);
          // Whatever it answers, the OpenAPI document gives it (tests/support/api-contract.ts).
          const answer = {
            method: route.method,
            path: path.slice("/api/v1".length),
            status: response.status,
            headers: response.headers,
            text,
          };
          expect((await contractOf(server.baseUrl)).problemsWith(answer), context).toEqual([]);
          const body = JSON.parse(text);
          if (response.status >= 400) {
            expectErrorEnvelope(context, body);
            expect(await databaseFingerprint(server), `${context}: a refused request changed the database`).toEqual(
              before,
            );
          } else {
            expect(body.success, context).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
    },
  );

  it("refuses odd Authorization headers and cookies with 401, never 5xx", async () => {
    const header = fc.oneof(
      hostileString.filter((value) => /^[\x20-\x7e]*$/.test(value)).map((value) => `Bearer ${value}`),
      fc.constantFrom(
        "Bearer",
        "Bearer ",
        "Basic YWRtaW46YWRtaW4=",
        `Bearer ${"a".repeat(5000)}`,
        "bearer  x  y",
        "Bearer\tx",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        header,
        hostileString.filter((value) => /^[\x21-\x7e]*$/.test(value) && !value.includes(";")),
        async (authorization, cookie) => {
          const response = await fetch(`${server.baseUrl}/api/v1/auth/me`, {
            headers: { authorization, cookie: `waqt.sid=${cookie}` },
          });
          expect(response.status, authorization.slice(0, 80)).toBe(401);
          expectErrorEnvelope(authorization.slice(0, 80), await response.json());
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---- The pages ----

type ConfigRoute = { path?: string; index?: boolean; file: string; children?: ConfigRoute[] };
function configRoutes(routes: ConfigRoute[], parent = ""): { path: string; file: string }[] {
  return routes.flatMap((route) => {
    const path = route.index || !route.path ? parent : `${parent}/${route.path}`.replace(/\/+/g, "/");
    return [
      ...(route.path !== undefined || route.index ? [{ path: path || "/", file: route.file }] : []),
      ...configRoutes(route.children ?? [], path),
    ];
  });
}

/** Every page of app/routes.ts, with whether it has a form action. */
async function pages(): Promise<{ path: string; hasAction: boolean }[]> {
  const build = await (await loadServerBuild()).loadPageBuild();
  return configRoutes(routeConfig as ConfigRoute[]).map(({ path, file }) => ({
    path,
    hasAction:
      typeof (build.routes[file.replace(/\.[jt]sx?$/, "")]?.module as { action?: unknown })?.action === "function",
  }));
}

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

/** Good forms to start from, one field made hostile at a time (see VALID_BODIES). */
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

function concrete(template: string, value: (name: string) => string): string {
  return template.replace(/:(\w+)|\*$/g, (_match, name: string | undefined) => encodeURIComponent(value(name ?? "*")));
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

describe("every page form under hostile input", PROPERTY_TIMEOUT, () => {
  it("has form actions to test (read from app/routes.ts)", async () => {
    expect((await pages()).filter((page) => page.hasAction).length).toBeGreaterThanOrEqual(12);
  });

  it("answers each form action with a form refusal or a redirect, never 5xx, and a refusal changes nothing", async () => {
    const actions = (await pages()).filter((page) => page.hasAction);
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
        hostileIds: fc.record({
          productId: hostileId,
          orderId: hostileId,
          userId: hostileId,
          discountId: hostileId,
          returnId: hostileId,
          file: hostileId,
          "*": hostileId,
        }),
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
        const path = concrete(page.path, (name) =>
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
    const all = await pages();
    const request = fc.record({
      page: fc.constantFrom(...all),
      ids: fc.record({
        productId: hostileId,
        orderId: hostileId,
        userId: hostileId,
        discountId: hostileId,
        returnId: hostileId,
        file: hostileId,
        "*": hostileId,
      }),
      query: fc.oneof(hostileQuery, mutatedQuery),
      asAdmin: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ page, ids: pageIds, query, asAdmin }) => {
        let path = concrete(page.path, (name) => pageIds[name as keyof typeof pageIds]);
        const search = new URLSearchParams(query).toString();
        if (search) path += `?${search}`;
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
