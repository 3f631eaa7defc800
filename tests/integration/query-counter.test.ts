import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

// The bench's query counter (BENCH_QUERY_COUNT=on): what `npm run bench` reports as queries per
// request must be a real count, per request, and the feature must stay off by default.

let counted: TestServer;
let plain: TestServer;

beforeAll(async () => {
  [counted, plain] = await Promise.all([startTestServer({ BENCH_QUERY_COUNT: "on" }), startTestServer()]);
  await insertUser(counted, { name: "Shopper", email: "shopper@counter.test", password: "shopperpass1" });
});
afterAll(async () => {
  await Promise.all([counted?.close(), plain?.close()]);
});

const queriesOf = (response: Response) => Number(response.headers.get("x-query-count"));

describe("query counter", () => {
  it("is off by default: no header, no stats endpoint", async () => {
    const client = new TestClient(plain.baseUrl);
    const response = await client.get("/api/v1/products?limit=12");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-query-count")).toBeNull();
    expect((await client.get("/__bench/query-stats")).status).toBe(404);
  });

  it("counts each request's queries, the same for 1 product as for 25 (no N+1), and totals them", async () => {
    const client = new TestClient(counted.baseUrl);
    await insertProducts(counted, [{ name: "Only One" }]);
    const one = queriesOf(await client.get("/api/v1/products?limit=12"));
    await insertProducts(
      counted,
      Array.from({ length: 24 }, (_, index) => ({ name: `Watch ${index}` })),
    );
    await client.get("/__bench/query-stats?reset");
    const many = await client.get("/api/v1/products?limit=100");
    // A page of the catalogue and its exact total in one round trip, whatever the page holds.
    expect(one).toBe(1);
    expect(queriesOf(many)).toBe(one);

    // The catalogue page adds its filters' counts beside the list, from the filters' index once
    // it is read (server/modules/catalog/facet-index.ts; a reading begun by a request would be
    // counted as that request's, so it is read first).
    await counted.services.catalog.refreshFacetIndex();
    const guestPage = queriesOf(await client.get("/products"));
    expect(guestPage).toBe(2);
    // Sent after the headers: the stats count requests whose response has closed, a moment later
    // on a busy machine, so they are asked until both requests are in.
    let stats = await (await client.get("/__bench/query-stats")).json();
    for (let attempt = 0; stats.requests < 2 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stats = await (await client.get("/__bench/query-stats")).json();
    }
    expect(stats).toMatchObject({ requests: 2, queries: one + guestPage, max: Math.max(one, guestPage) });
  });

  it("counts queries inside transactions and the session store's own pool", async () => {
    const client = new TestClient(counted.baseUrl);
    const guest = queriesOf(await client.get("/faq"));
    const login = await client.postForm("/login", {
      email: "shopper@counter.test",
      password: "shopperpass1",
      redirectTo: "",
    });
    expect(login.status).toBe(303);
    // Signed in: the session, its user and the cart badge are read together, in one query.
    const signedIn = queriesOf(await client.get("/faq"));
    expect(signedIn).toBe(guest + 1);

    const [productId] = await insertProducts(counted, [{ name: "For The Cart", stock: 3 }]);
    const token = (
      await client.api("POST", "/auth/login", { body: { email: "shopper@counter.test", password: "shopperpass1" } })
    ).body.data.token;
    const added = await client.api("POST", "/cart", { token, body: { productId, quantity: 1 } });
    expect(added.status).toBe(200);
    // Token lookup, BEGIN, the cart lock, the product lock, the line, its upsert, the read, COMMIT…
    expect(Number(added.headers.get("x-query-count"))).toBeGreaterThanOrEqual(5);
  });

  it("serves a signed-in cart page in at most 3 queries, whatever the cart holds", async () => {
    await insertUser(counted, { name: "Cart Shopper", email: "cart@counter.test", password: "cartpass123" });
    const client = new TestClient(counted.baseUrl);
    const login = await client.postForm("/login", {
      email: "cart@counter.test",
      password: "cartpass123",
      redirectTo: "",
    });
    expect(login.status).toBe(303);
    const productIds = await insertProducts(counted, [
      { name: "Cart Line One", stock: 5 },
      { name: "Cart Line Two", stock: 5 },
      { name: "Cart Line Three", stock: 5 },
    ]);
    for (const productId of productIds) {
      expect((await client.postForm("/cart", { intent: "add", productId, quantity: "1" })).status).toBeLessThan(400);
    }
    const cart = await client.get("/cart");
    const html = await cart.text();
    expect(cart.status).toBe(200);
    for (const name of ["Cart Line One", "Cart Line Two", "Cart Line Three"]) expect(html).toContain(name);
    // The badge read with the session is the cart's quantity.
    expect(html).toMatch(/data-testid="cart-badge"[^>]*>3</);
    // The session with its user and the badge, the removed-products notice, the cart with its lines.
    expect(queriesOf(cart)).toBeLessThanOrEqual(3);
  });
});
