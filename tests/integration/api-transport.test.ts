/**
 * The API's transport (docs/api.md, "Transport"): a JSON 404 in the envelope for unknown paths,
 * bodies over 10 kB and malformed JSON refused in the envelope, the OpenAPI document served, and
 * CORS for the configured origins only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
});
afterAll(async () => {
  await server?.close();
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
