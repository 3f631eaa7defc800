import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadResult } from "../../bench/load";
import { meetsTarget, waitForIdleDatabase } from "../../bench/report-rows";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// How `npm run bench:reports` (bench/reports.ts) judges each report's row and when it starts one
// (docs/decisions/2026-11-26-report-speed.md): a row that measured no answer used to read "yes",
// its p99 being autocannon's 0; and a row began while the previous row's queries still ran.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

function rowOf(requests: number, p99: number, errors: number): LoadResult {
  return {
    id: "report-products-year",
    title: "API GET /api/v1/reports/products, year",
    baseline: null,
    connections: 10,
    seconds: 8,
    requests,
    requestsPerSecond: requests / 8,
    latencyMs: { mean: p99 / 2, p50: p99 / 2, p90: p99, p99, max: p99 },
    errors,
    statusCodes: requests ? { "200": requests } : {},
    bytesPerRequest: 2000,
    cacheHitRate: null,
    queries: null,
    rssMb: { start: null, max: null },
    cpuMsPerRequest: { server: 1, database: null, loadGenerator: 1 },
    loadAverage: 2,
  };
}

describe("a report's row in the bench", () => {
  it("meets the target only with answers, no error, and a p99 under 200 ms", () => {
    expect(meetsTarget(rowOf(400, 150, 0))).toBe(true);
    // No request answered within the run: autocannon's p99 is 0, which says nothing.
    expect(meetsTarget(rowOf(0, 0, 0))).toBe(false);
    expect(meetsTarget(rowOf(0, 0, 10))).toBe(false);
    expect(meetsTarget(rowOf(400, 150, 1))).toBe(false);
    expect(meetsTarget(rowOf(400, 200, 0))).toBe(false);
  });

  it("starts once the database runs no other query", async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      let finished = false;
      const slow = other.query("SELECT pg_sleep(1.5)").then(() => (finished = true));
      // The slow query is running before the bench asks.
      for (;;) {
        const { rows } = await database.db.raw<{ rows: unknown[] }>(
          "SELECT FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%' AND state = 'active'",
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const waited = await waitForIdleDatabase(database.db);
      expect(finished).toBe(true);
      expect(waited).toBeGreaterThan(0.5);
      await slow;
      expect(await waitForIdleDatabase(database.db)).toBeLessThan(0.5);
    } finally {
      await other.end();
    }
  });
});
