import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoData } from "../../seeds/demo";
import { TestClient } from "../support/http-client";
import { adminQuery } from "../support/test-database";
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

describe("health", () => {
  it("reports the process up and the database answering", async () => {
    expect(await (await fetch(server.baseUrl + "/healthz")).json()).toEqual({ status: "ok" });
    expect((await fetch(server.baseUrl + "/readyz")).status).toBe(200);
  });
});

describe("API plumbing", () => {
  it("answers unknown API paths with the JSON envelope", async () => {
    const response = await client.api("GET", "/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: "Not found - /api/v1/no-such-thing" });
  });

  it("refuses bodies over 10 kB and malformed JSON with the envelope", async () => {
    const large = await client.api("POST", "/no-such-thing", { body: { text: "x".repeat(11 * 1024) } });
    expect(large.status).toBe(413);
    expect(large.body.success).toBe(false);
    const malformed = await client.api("POST", "/no-such-thing", { body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, message: "Request body is not valid JSON" });
  });

  it("serves the OpenAPI document", async () => {
    const response = await client.api("GET", "/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    expect(response.body.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer" });
  });

  it("gives CORS headers to configured origins only", async () => {
    const other = await fetch(server.baseUrl + "/api/v1/openapi.json", { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const friendly = await startTestServer({ CORS_ORIGINS: "https://app.example.com" });
    try {
      const preflight = await fetch(friendly.baseUrl + "/api/v1/openapi.json", {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-headers": "authorization" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    } finally {
      await friendly.close();
    }
  });
});

describe("when the database is gone", () => {
  it("shows the error screen without leaking database text, and readiness fails", async () => {
    const faulty = await startTestServer();
    try {
      await adminQuery(inject("testDatabaseAdminUrl"), `DROP DATABASE ${faulty.database.name} WITH (FORCE)`);
      const response = await fetch(faulty.baseUrl + "/");
      expect(response.status).toBeGreaterThanOrEqual(500);
      const html = await response.text();
      expect(html).toContain("Oops! Something went wrong");
      expect(html).toContain("Try Again");
      expect(html).not.toMatch(/relation|select |knex|pg_|does not exist/i);
      expect((await fetch(faulty.baseUrl + "/readyz")).status).toBe(503);
    } finally {
      await faulty.close();
    }
  });
});
