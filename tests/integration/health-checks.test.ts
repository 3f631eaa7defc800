/**
 * The health checks a load balancer reads (/healthz: the process, /readyz: the database), and
 * what a shopper sees while the database is gone: the error screen, without database text.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminQuery } from "../support/test-database";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("health", () => {
  it("reports the process up and the database answering", async () => {
    expect(await (await fetch(server.baseUrl + "/healthz")).json()).toEqual({ status: "ok" });
    expect((await fetch(server.baseUrl + "/readyz")).status).toBe(200);
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
