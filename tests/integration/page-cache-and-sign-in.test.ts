/**
 * The guest page cache and the session middleware agree on who is signed in, whatever the Cookie
 * header looks like: a guest never gets a page rendered for a user, the cache keeps no answer
 * made for one (pages or API), and the sitemap is answered from the cache until a product changes.
 */
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
