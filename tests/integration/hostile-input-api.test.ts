/**
 * Hostile input, property-based (fast-check): random and malformed bodies, queries, ids and
 * headers thrown at every /api/v1 call (read from server/api-routes.ts, with their fields read
 * from their yup schemas); the page forms are hostile-input-pages.test.ts.
 *
 * Whatever arrives, the answer is a 4xx with the API's error envelope, never a 500 and never a
 * crash, and a refused request leaves the database as it was.
 */
import fc from "fast-check";
import type * as yup from "yup";
import { describe, expect, it } from "vitest";
import { apiRoutes } from "../../server/http/api/api-routes";
import type { ApiRoute } from "../../server/http/api-route";
import { contractOf } from "../support/api-contract";
import { databaseFingerprint } from "../support/db-fingerprint";
import {
  address,
  hostileId,
  hostileQuery,
  hostileString,
  hostileValue,
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

withHostileInputStore();

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

/** The API's error envelope: success false, a message in words, field errors when any, and a refusal's code when it has one. */
function expectErrorEnvelope(context: string, body: unknown) {
  expect(body, context).toBeTypeOf("object");
  const envelope = body as { success: unknown; message: unknown; errors?: unknown };
  expect(
    Object.keys(envelope).every((key) => ["success", "message", "errors", "code"].includes(key)),
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
        query: hostileQuery,
        raw: bodies.chain(rawBody),
        idempotencyKey: fc.option(hostileString, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, raw, idempotencyKey }) => {
          const path = "/api/v1" + requestPath(route.path, (name) => params[name]!, query);
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
