/**
 * How the server answers pages, on the demo store: rendered on the server with data from the
 * database, a 404 page for unknown paths, security headers with a script nonce, compressed pages
 * and long-cached hashed assets, and form posts from other sites refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../seeds/demo";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemoData(server.database.db);
  client = new TestClient(server.baseUrl);
});
afterAll(async () => {
  await server?.close();
});

describe("pages", () => {
  it("renders the home page on the server, with watches from the database", async () => {
    const response = await client.get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain("<h1>Timeless watches, delivered to your door</h1>");
    expect(html).toContain("New arrivals");
    expect(html).toMatch(/Rs\. [\d,]+/);
    expect(html).toContain('href="/products?category=Men"');
    expect(html).toMatch(/<title>Waqt \| Premium Authentic Watches in Pakistan<\/title>/);
    expect(html).toContain(`<link rel="canonical" href="${server.config.publicUrl}/"`);
  });

  it("answers an unknown path with the 404 page", async () => {
    const response = await client.get("/no-such-page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("Go Home");
    expect(html).toContain('name="robots" content="noindex, nofollow"');
  });

  it("sends security headers, with a script nonce that the page's own scripts carry", async () => {
    const response = await client.get("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    const html = await response.text();
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>/g)].map((match) => match[1]!);
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const attributes of inlineScripts) {
      if (attributes.includes("application/ld+json")) continue;
      expect(attributes).toContain(`nonce="${nonce}"`);
    }
    const second = await client.get("/");
    expect(second.headers.get("content-security-policy")).not.toContain(`'nonce-${nonce}'`);
  });

  it("compresses pages and serves hashed assets with a long cache", async () => {
    const response = await fetch(server.baseUrl + "/", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const html = await response.text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const assetResponse = await fetch(server.baseUrl + asset);
    expect(assetResponse.status).toBe(200);
    expect(assetResponse.headers.get("cache-control")).toMatch(/max-age=31536000.*immutable/);
  });

  it("refuses a form post sent from another site", async () => {
    const response = await client.postForm("/", {}, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });
});
