import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "./http-client";
import { insertProducts } from "./fixtures";
import { startTestServer, type TestServer } from "./test-server";

/**
 * What the hostile-input tests share (tests/integration/hostile-input-*.test.ts): the store they
 * run on, with a customer, an admin and the things they own (`withHostileInputStore()` registers
 * the hooks that set the bindings below), and what hostile input looks like.
 */

/** Runs per call or form: enough to find shapes nobody thought of, bounded in time (HOSTILE_RUNS to search harder). */
export const RUNS = Number(process.env.HOSTILE_RUNS ?? 40);
/** A few seconds each alone; room for a busy machine running the whole suite. */
export const PROPERTY_TIMEOUT = { timeout: 120_000 };

export let server: TestServer;
export let ids: {
  productId: string;
  customerId: string;
  adminId: string;
  orderId: string;
  deliveredOrderId: string;
  returnId: string;
  discountId: string;
};
export let customer: TestClient;
export let admin: TestClient;

export function withHostileInputStore() {
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
}

async function signedIn(email: string) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", { email, password: "hostilepass1" });
  expect(response.status).toBe(303);
  return client;
}

/** A good address and a good product, to start hostile bodies and forms from. */
export const address = {
  street: "1 Safe Street",
  city: "Lahore",
  state: "Punjab",
  zipCode: "54000",
  country: "Pakistan",
};
export const product = {
  name: "Fuzz Watch",
  description: "Steel",
  price: 100,
  category: "Men",
  imageUrl: "/images/x.svg",
  stock: 1,
  brand: "",
};

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

export const hostileString = fc.oneof(
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
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
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
export const hostileId = fc.oneof(
  fc.uuid(),
  hostileString.filter((value) => value.length > 0 && value.length < 2000),
);

/** The example with one field (nested ones too) replaced by a hostile value or by itself with a NUL inside. */
export function mutatedOne(example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
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

/** Query pairs made up: names the list calls read or hostile ones, hostile values. */
const randomQuery = fc.array(
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

/** A query for any call or page: made up, or a good one with one value made hostile. */
export const hostileQuery = fc.oneof(randomQuery, mutatedQuery);

/**
 * The path of a request: the route's template with each parameter (and a final "*") filled by
 * `valueOf`, encoded, then the query, when it has any pairs.
 */
export function requestPath(template: string, valueOf: (name: string) => string, query: [string, string][] = []) {
  const path = template.replace(/:(\w+)|\*$/g, (_match, name: string | undefined) =>
    encodeURIComponent(valueOf(name ?? "*")),
  );
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

export const STACK_OR_SQL =
  /\bat [\w.<>]+ \(|node_modules|TypeError|ReferenceError|SyntaxError|knex|\bpg_|violates|relation "|syntax error at/i;
