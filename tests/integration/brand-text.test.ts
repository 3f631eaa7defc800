/**
 * A brand's short text, written by the admins (docs/product.md, "Brands"; docs/api.md, "Brands"):
 * the list and form of /admin/brands, PUT /api/v1/brands/{slug}, each refused with the reason
 * and nothing changed; and the brand's page shows the new text at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let api: TestClient;
let adminToken: string;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({ PAGE_CACHE: "on" });
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@brand-text.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(api, "admin@brand-text.test", "adminpass1");
  admin = await signedInClient(server.baseUrl, "admin@brand-text.test", "adminpass1");
  await insertProducts(server, [
    { name: "Prospex Diver", brand: "Seiko" },
    { name: "Presage", brand: "Seiko" },
    { name: "Carrera", brand: "TAG Heuer" },
  ]);
});
afterAll(async () => {
  await server?.close();
});

const textOf = async (slug: string) =>
  ((await server.database.db("brands").where({ slug }).first("description")) as { description: string }).description;

/** The brand's page as a guest sees it (the page cache is on, and keeps no brand page: server/http/page-cache.ts). */
const guestPage = async (path: string) =>
  (await fetch(server.baseUrl + path, { headers: { "accept-encoding": "identity" } })).text();

describe("the admins' brand pages", () => {
  it("lists the brands with their watches, and saves a brand's text onto its page, cached or not", async () => {
    const list = await pageOf(admin, "/admin/brands");
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/admin/brands/seiko"');
    expect(list.text).toMatch(/>Seiko<\/a>.*?>2</s);
    expect(list.text).toContain('href="/admin/brands/tag-heuer"');
    expect((await pageOf(admin, "/admin")).text).toContain('href="/admin/brands"');

    await guestPage("/brands/seiko");
    expect(await guestPage("/brands/seiko")).not.toContain("Japan&#x27;s watchmaker");

    const tooLong = await admin.postForm("/admin/brands/seiko", { description: "x".repeat(2001) });
    expect(tooLong.status).toBe(400);
    const refused = await tooLong.text();
    expect(refused).toContain("Description must be at most 2000 characters");
    expect(refused).toContain("x".repeat(2001));
    expect(await textOf("seiko")).toBe("");

    const saved = await admin.postForm("/admin/brands/seiko", { description: "  Japan's watchmaker since 1881.  " });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/admin/brands");
    expect(await textOf("seiko")).toBe("Japan's watchmaker since 1881.");
    expect(await guestPage("/brands/seiko")).toContain("Japan&#x27;s watchmaker since 1881.");

    expect((await pageOf(admin, "/admin/brands/no-such-brand")).status).toBe(404);
  });
});

describe("PUT /api/v1/brands/{slug}", () => {
  it("replaces the text for an admin, refuses bad input and unknown brands, and changes nothing then", async () => {
    const refused = await api.api("PUT", "/brands/tag-heuer", {
      body: { description: "y".repeat(2001) },
      token: adminToken,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "description", message: "Description must be at most 2000 characters" },
    ]);
    const none = await api.api("PUT", "/brands/tag-heuer", { body: {}, token: adminToken });
    expect(none.status).toBe(400);
    expect(await textOf("tag-heuer")).toBe("");

    const unknown = await api.api("PUT", "/brands/no-such-brand", { body: { description: "Hi" }, token: adminToken });
    expect(unknown.status).toBe(404);

    const customer = await insertUser(server, {
      name: "Shopper",
      email: "shopper@brand-text.test",
      password: "shopperpass1",
    });
    expect(customer).toBeTruthy();
    const customerToken = await apiToken(api, "shopper@brand-text.test", "shopperpass1");
    expect(
      (await api.api("PUT", "/brands/tag-heuer", { body: { description: "Mine" }, token: customerToken })).status,
    ).toBe(403);
    expect((await api.api("PUT", "/brands/tag-heuer", { body: { description: "Mine" } })).status).toBe(401);
    expect(await textOf("tag-heuer")).toBe("");

    const saved = await api.api("PUT", "/brands/tag-heuer", {
      body: { description: "Swiss, since 1860: chronographs for racing." },
      token: adminToken,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      name: "TAG Heuer",
      slug: "tag-heuer",
      description: "Swiss, since 1860: chronographs for racing.",
    });
    expect(await guestPage("/brands/tag-heuer")).toContain("Swiss, since 1860: chronographs for racing.");
  });
});
