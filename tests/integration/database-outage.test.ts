import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts } from "../support/fixtures";
import { serverAddress, startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { startTestServer, type TestServer } from "../support/test-server";

/**
 * The database goes away and comes back (docs/product.md, "When the database is away"): the API answers its 503
 * envelope, every page the error screen with status 503 (guest or signed in, loader, action or
 * session store), and both recover by themselves. The app reaches PostgreSQL through a proxy
 * that the test cuts; `npm run test:load` (scenario B) does the same with a real shutdown under load.
 */
let proxy: TcpProxy;
let server: TestServer;
let shopper: TestClient;
let token: string;
let productId: string;

const BUSY = "The store is busy or under maintenance";
const EMAIL = "outage@example.com";
const PASSWORD = "outage-password";

beforeAll(async () => {
  proxy = await startTcpProxy(serverAddress(inject("testDatabaseStoreUrl")));
  server = await startTestServer({}, { databasePort: proxy.port });
  [productId] = await insertProducts(server, [{ name: "Outage Chronograph", stock: 5 }]);
  await server.database
    .db("users")
    .insert({ name: "Outage Shopper", email: EMAIL, passwordHash: await hashPassword(PASSWORD, 4) });
  shopper = new TestClient(server.baseUrl);
  expect((await shopper.postForm("/login", { email: EMAIL, password: PASSWORD })).status).toBe(303);
  token = await apiToken(shopper, EMAIL, PASSWORD);
});
afterAll(async () => {
  await proxy?.start().catch(() => {});
  await server?.close();
  await proxy?.close();
});

async function expectBusyPage(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain(BUSY);
  expect(html).not.toMatch(/ECONNREFUSED|knex|select |pg_/i);
}

describe("when the database goes away", () => {
  it("answers clean 503s while it is away, then recovers by itself", async () => {
    expect((await shopper.get("/cart")).status).toBe(200);
    await proxy.stop();

    const guest = new TestClient(server.baseUrl);
    // Guest pages: their loaders fail.
    await expectBusyPage(await guest.get("/"));
    await expectBusyPage(await guest.get(`/products/${productId}`));
    // A form action (log-in) and the session it would write.
    await expectBusyPage(await guest.postForm("/login", { email: EMAIL, password: PASSWORD }));
    // A signed-in page: its session cannot even be read.
    await expectBusyPage(await shopper.get("/cart"));
    await expectBusyPage(await shopper.get("/my-orders"));
    // The API: the envelope, with Retry-After.
    for (const [path, auth] of [
      ["/products?limit=12", undefined],
      ["/cart", token],
    ] as const) {
      const answer = await guest.api("GET", path, { token: auth });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ success: false, message: "Service temporarily unavailable" });
      expect(answer.headers.get("retry-after")).toBe("5");
    }

    await proxy.start();
    const home = await guest.get("/");
    expect(home.status).toBe(200);
    const cart = await shopper.get("/cart");
    expect(cart.status).toBe(200);
    expect(await cart.text()).toContain("Your cart is empty");
    expect((await guest.api("GET", "/cart", { token })).status).toBe(200);
  });

  it("does not write the session on every signed-in page view (its answer never waits for that write)", async () => {
    const expiry = async () =>
      (await server.database.db("sessions").select("expire").whereNotNull("user_id")).map((row) => String(row.expire));
    const before = await expiry();
    expect(before.length).toBeGreaterThan(0);
    // The stored expiry has a resolution of one second: a touch would move it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await shopper.get("/my-orders")).status).toBe(200);
    expect(await expiry()).toEqual(before);
  });
});
