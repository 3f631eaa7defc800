/**
 * Trust: the guest page cache and the session middleware agree on who is signed in, whatever the
 * Cookie header looks like; a password change ends every other sign-in even when one of them
 * has a request in flight; requests that Node itself refuses still answer in the store's words;
 * password changes are rate limited before bcrypt runs; the sitemap is answered from the cache.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let productId: string;

beforeAll(async () => {
  server = await startTestServer({ PAGE_CACHE: "on" });
  await insertUser(server, { name: "Trust Admin", email: "admin@trust.test", password: "adminpass1", role: "admin" });
  [productId] = (await insertProducts(server, [{ name: "Trusted Automatic", stock: 50 }])) as [string];
  await until(() => server.pageCache!.isAvailable());
});
afterAll(async () => {
  await server?.close();
});

async function until(condition: () => boolean | Promise<boolean>, what = "condition") {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signedIn(email: string, password: string, target = server) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

/** Sends exactly these bytes on a new connection and answers everything the server wrote back. */
function rawExchange(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

/** A GET with the header lines exactly as given (spaces, tabs and repeated headers kept). */
function rawGet(baseUrl: string, path: string, headerLines: string[]): Promise<string> {
  const host = new URL(baseUrl).host;
  return rawExchange(
    baseUrl,
    [`GET ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...headerLines, "", ""].join("\r\n"),
  );
}

describe("the guest page cache and the session agree on who is signed in", () => {
  it("never shows a guest a page rendered for a user, whatever the spelling of the session cookie", async () => {
    const name = "Sana Cookie-Spelling";
    await insertUser(server, { name, email: "sana@trust.test", password: "sanapass1" });
    const sana = await signedIn("sana@trust.test", "sanapass1");
    const sid = sana.cookie(SESSION_COOKIE)!;
    const spellings = [
      [`Cookie: ${SESSION_COOKIE} =${sid}`],
      [`Cookie: ${SESSION_COOKIE}\t=${sid}`],
      [`Cookie: ${SESSION_COOKIE} = ${sid}`],
      [`Cookie:  ${SESSION_COOKIE}=${sid} `],
      [`Cookie: other=1; ${SESSION_COOKIE}=${sid}`],
      [`Cookie: waqt.lite=0; ${SESSION_COOKIE}=${sid}`],
      [`Cookie: ${SESSION_COOKIE}=${sid};waqt.lite=1`],
      [`Cookie: other=1`, `Cookie: ${SESSION_COOKIE}=${sid}`],
      [`Cookie: waqt.lite=1`, `Cookie: ${SESSION_COOKIE} =${sid}`],
    ];
    let signedInAnswers = 0;
    for (const path of ["/contact", "/products", `/products/${productId}`]) {
      for (const lines of spellings) {
        const answer = await rawGet(server.baseUrl, path, lines);
        if (answer.includes(name)) signedInAnswers++;
        // Whatever the cache kept meanwhile (it keeps a page a moment after answering it), a
        // guest gets a guest's page, from the cache or freshly rendered.
        for (let visit = 0; visit < 3; visit++) {
          await sleep(30);
          for (const guestCookie of [undefined, "waqt.lite=1"]) {
            const guest = await fetch(server.baseUrl + path, { headers: guestCookie ? { cookie: guestCookie } : {} });
            const html = await guest.text();
            expect(html, `${path} after ${lines.join(" | ")}`).not.toContain(name);
            expect(html, `${path} after ${lines.join(" | ")}`).not.toContain("sana@trust.test");
          }
        }
      }
    }
    // The spellings did reach a signed-in page: the session middleware reads them as a session.
    expect(signedInAnswers).toBeGreaterThan(0);
  });

  it("keeps no answer marked private or no-store, nor one for a signed-in user", async () => {
    const cache = server.pageCache!;
    const before = cache.stats().entries;
    const admin = await signedIn("admin@trust.test", "adminpass1");
    for (let visit = 0; visit < 3; visit++) await admin.get("/products?page=1&trust=private");
    await sleep(100);
    expect(cache.stats().entries).toBe(before);
    // An API read with a token is the token holder's: not kept either.
    const token = await apiToken(admin, "admin@trust.test", "adminpass1");
    for (let visit = 0; visit < 3; visit++) {
      const response = await fetch(`${server.baseUrl}/api/v1/products?limit=3&trust=token`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-page-cache")).toBeNull();
    }
    await sleep(100);
    expect(cache.stats().entries).toBe(before);
  });

  it("answers the sitemap from the cache, and renders it again after a product changes", async () => {
    const first = await fetch(`${server.baseUrl}/sitemap.xml`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(`/products/${productId}`);
    await until(
      async () => (await fetch(`${server.baseUrl}/sitemap.xml`)).headers.get("x-page-cache") === "hit",
      "a sitemap hit",
    );
    const [added] = await insertProducts(server, [{ name: "Sitemap Newcomer" }]);
    await until(
      async () => (await (await fetch(`${server.baseUrl}/sitemap.xml`)).text()).includes(`/products/${added}`),
      "the new product in the sitemap",
    );
  });
});

describe("a password change ends every other sign-in", () => {
  it("signs out a session whose form post was in flight across the change, and keeps the one that changed it", async () => {
    await insertUser(server, { name: "Victim Shopper", email: "victim@trust.test", password: "victimpass1" });
    const thief = await signedIn("victim@trust.test", "victimpass1");
    const owner = await signedIn("victim@trust.test", "victimpass1");
    expect((await thief.get("/profile")).status).toBe(200);

    // The stolen session starts a slow Add to Cart (whose answer carries a message to the next
    // page), and is still sending it when the owner changes the password.
    const body = new URLSearchParams({ intent: "add", productId, quantity: "1", returnTo: "/products" }).toString();
    const { hostname, port, host } = new URL(server.baseUrl);
    const socket = net.connect(Number(port), hostname);
    const answer = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      [
        "POST /cart HTTP/1.1",
        `Host: ${host}`,
        `Origin: ${server.baseUrl}`,
        "Connection: close",
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${body.length}`,
        `Cookie: ${thief.cookieHeader()}`,
        "",
        body.slice(0, 10),
      ].join("\r\n"),
    );
    await sleep(300);
    const change = await owner.postForm("/profile/password", {
      currentPassword: "victimpass1",
      newPassword: "victimpass2",
      confirmPassword: "victimpass2",
    });
    expect(change.status).toBe(303);
    socket.write(body.slice(10));
    expect(await answer).toMatch(/^HTTP\/1\.1 303/);

    const afterwards = await thief.get("/profile");
    expect(afterwards.status).toBe(302);
    expect(afterwards.headers.get("location")).toBe("/login?redirectTo=%2Fprofile");
    expect((await owner.get("/profile")).status).toBe(200);
  });

  it("signs out a session whose row was written back after the change, whatever wrote it", async () => {
    await insertUser(server, { name: "Row Victim", email: "row@trust.test", password: "rowpass11" });
    const thief = await signedIn("row@trust.test", "rowpass11");
    const owner = await signedIn("row@trust.test", "rowpass11");
    const thiefSid = decodeURIComponent(thief.cookie(SESSION_COOKIE)!).slice(2).split(".")[0]!;
    const row = await server.database.db("sessions").where("sid", thiefSid).first();
    expect(row).toBeDefined();
    await owner.postForm("/profile/password", {
      currentPassword: "rowpass11",
      newPassword: "rowpass22",
      confirmPassword: "rowpass22",
    });
    expect(await server.database.db("sessions").where("sid", thiefSid).first()).toBeUndefined();
    // The session store saves with an upsert: a late save puts the old row back as it was.
    await server.database.db("sessions").insert({ sid: row.sid, sess: row.sess, expire: row.expire });
    const afterwards = await thief.get("/profile");
    expect(afterwards.status).toBe(302);
    expect((await owner.get("/profile")).status).toBe(200);
  });

  it("refuses an API token issued by a log-in that checked the old password, and keeps the one that changed it", async () => {
    const userId = await insertUser(server, {
      name: "Token Victim",
      email: "tokens@trust.test",
      password: "tokenpass1",
    });
    const client = new TestClient(server.baseUrl);
    const stolen = await apiToken(client, "tokens@trust.test", "tokenpass1");
    const mine = await apiToken(client, "tokens@trust.test", "tokenpass1");
    // A log-in that checked the old password, whose token is written after the change.
    const lateLogIn = await server.services.accounts.logIn(
      { email: "tokens@trust.test", password: "tokenpass1" },
      { ip: "127.0.0.9" },
    );
    const changed = await client.api("PUT", "/auth/change-password", {
      token: mine,
      body: { currentPassword: "tokenpass1", newPassword: "tokenpass2" },
    });
    expect(changed.status).toBe(200);
    const late = await server.services.accounts.issueToken(userId, lateLogIn.credentialsVersion);
    expect((await client.api("GET", "/auth/me", { token: stolen })).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: late.token })).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: mine })).status).toBe(200);
    expect((await client.api("GET", "/auth/me", { token: changed.body.data.token })).status).toBe(200);
  });

  it("applies a role change and a deletion to the next request, even to a session written back after them", async () => {
    const adminId = await insertUser(server, {
      name: "Demoted Admin",
      email: "demoted@trust.test",
      password: "demotedpass1",
      role: "admin",
    });
    const demoted = await signedIn("demoted@trust.test", "demotedpass1");
    expect((await demoted.get("/admin")).status).toBe(200);
    const boss = await signedIn("admin@trust.test", "adminpass1");
    const sid = decodeURIComponent(demoted.cookie(SESSION_COOKIE)!).slice(2).split(".")[0]!;
    const row = await server.database.db("sessions").where("sid", sid).first();

    const demote = await boss.postForm(`/admin/users/${adminId}/role`, { role: "customer" });
    expect(demote.status).toBe(303);
    const refused = await demoted.get("/admin");
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/");

    const removal = await boss.postForm(`/admin/users/${adminId}/delete`, {});
    expect(removal.status).toBe(303);
    await server.database
      .db("sessions")
      .insert({ sid: row.sid, sess: row.sess, expire: row.expire })
      .onConflict("sid")
      .ignore();
    const gone = await demoted.get("/profile");
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/login?redirectTo=%2Fprofile");
  });
});

describe("password changes are rate limited before the hash is checked", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMITS: "on" });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers 429 with Retry-After after 10 attempts for one user, on the page and the API, even with the right password", async () => {
    await insertUser(limited, { name: "Guessed User", email: "guessed@trust.test", password: "rightpass1" });
    const page = await signedIn("guessed@trust.test", "rightpass1", limited);
    const token = await apiToken(page, "guessed@trust.test", "rightpass1");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        (
          await page.postForm("/profile/password", {
            currentPassword: "wrongpass1",
            newPassword: "newpass123",
            confirmPassword: "newpass123",
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await page.api("PUT", "/auth/change-password", {
            token,
            body: { currentPassword: "wrongpass1", newPassword: "newpass123" },
          })
        ).status,
      ).toBe(401);
    }
    const pageRefusal = await page.postForm("/profile/password", {
      currentPassword: "rightpass1",
      newPassword: "newpass123",
      confirmPassword: "newpass123",
    });
    expect(pageRefusal.status).toBe(429);
    expect(Number(pageRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await pageRefusal.text()).toContain("Too many password attempts");
    const apiRefusal = await page.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: "rightpass1", newPassword: "newpass123" },
    });
    expect(apiRefusal.status).toBe(429);
    expect(apiRefusal.body).toMatchObject({
      success: false,
      message: expect.stringContaining("Too many password attempts"),
    });
    expect(Number(apiRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
    // The password did not change.
    await signedIn("guessed@trust.test", "rightpass1", limited);
  });

  it("answers 429 after 30 attempts from one address, across users", async () => {
    // The attempts above came from this address too.
    await limited.database.db("rateLimits").delete();
    const clients: TestClient[] = [];
    for (let index = 0; index < 4; index++) {
      await insertUser(limited, {
        name: `Address User ${index}`,
        email: `address${index}@trust.test`,
        password: "rightpass1",
      });
      clients.push(await signedIn(`address${index}@trust.test`, "rightpass1", limited));
    }
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const client = clients[Math.floor(attempt / 8)]!;
      statuses.push(
        (
          await client.postForm("/profile/password", {
            currentPassword: "wrongpass1",
            newPassword: "newpass123",
            confirmPassword: "newpass123",
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("requests that Node refuses before Express", () => {
  const bigQuery = "q=" + "x".repeat(20 * 1024);

  it("answer 431 with the API's envelope under /api/v1", async () => {
    const answer = await rawGet(server.baseUrl, `/api/v1/products?${bigQuery}`, []);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      success: false,
      message: "Request header fields too large",
    });
    const viaFetch = await fetch(`${server.baseUrl}/api/v1/cart?${bigQuery}`);
    expect(viaFetch.status).toBe(431);
    expect(await viaFetch.json()).toMatchObject({ success: false });
  });

  it("answer on a kept-alive connection that has already carried an answer", async () => {
    // Clients reuse connections: a refusal there once closed the connection without a word
    // ("other side closed" in fetch) instead of answering 431.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string; reusedSocket: boolean }>((resolve, reject) => {
        const request = http.get(server.baseUrl + path, { agent }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body, reusedSocket: request.reusedSocket }));
        });
        request.on("error", reject);
      });
    try {
      expect((await get("/healthz")).status).toBe(200);
      const refused = await get(`/api/v1/products?${bigQuery}`);
      expect(refused.reusedSocket).toBe(true);
      expect(refused.status).toBe(431);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "Request header fields too large" });
    } finally {
      agent.destroy();
    }
  });

  it("answer 431 with a short text on pages, and 400 for a malformed request", async () => {
    const page = await rawGet(server.baseUrl, `/cart?${bigQuery}`, []);
    expect(page).toMatch(/^HTTP\/1\.1 431 /);
    expect(page).toMatch(/content-type: text\/plain/i);
    expect(page).toContain("Request header fields too large");
    const badApi = await rawExchange(
      server.baseUrl,
      "GET /api/v1/products HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
    );
    expect(badApi).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(badApi.slice(badApi.indexOf("\r\n\r\n") + 4))).toEqual({
      success: false,
      message: "Bad request",
    });
    const badPage = await rawExchange(server.baseUrl, "GET /products HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n");
    expect(badPage).toMatch(/^HTTP\/1\.1 400 /);
    expect(badPage).toContain("Bad request");
    // The server goes on answering.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
