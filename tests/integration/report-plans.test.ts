import type { Knex } from "knex";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportsService } from "../../server/modules/reports/reports.service";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// How PostgreSQL plans a report's grouping by day, week or month in Pakistan over a year of
// orders (docs/decisions/2026-11-26-report-speed.md). Without statistics on those expressions it
// guesses one group per order and sorts the year's orders to group them (on disk past work_mem);
// with them (migration 90) it knows there are a few dozen groups and hashes them in memory. The
// plan is PostgreSQL's own (EXPLAIN) for the very query the sales report sent. Since the kept
// daily figures (migration 20261127000010) the weeks are grouped from per-day rows (kept or, as
// here before any roll-up, computed per day from the orders): at most one group per day.

const ORDERS = 20_000;

type PlanNode = {
  "Node Type": string;
  Strategy?: string;
  "Group Key"?: string[];
  "Plan Rows": number;
  Plans?: PlanNode[];
};

let database: TestDatabase;
let explainer: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.raw(
    `INSERT INTO orders (customer_name, customer_email, street, city, state, zip_code, country, total_price, status, created_at)
     SELECT 'Customer ' || g, 'c' || g || '@example.com', '1 Mall Road', 'Lahore', 'Punjab', '54000', 'Pakistan',
            1000 + g % 500, (ARRAY['Pending', 'Delivered', 'Cancelled'])[1 + g % 3],
            timestamptz '2026-11-01 12:00+05' - make_interval(secs => g * (365 * 86400.0 / ?))
       FROM generate_series(1, ?) AS g`,
    [ORDERS, ORDERS],
  );
  // What autovacuum does after such an insert.
  await database.db.raw("ANALYZE orders");
  explainer = new pg.Client({ connectionString: database.url });
  await explainer.connect();
}, 120_000);

afterAll(async () => {
  await explainer?.end();
  await database?.drop();
});

/** Every node of a plan, the top one first. */
function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe("the reports' plans over a year of orders", () => {
  it("groups a year by week in Pakistan from at most a group per day, not one per order", async () => {
    const sent: { sql: string; bindings: readonly unknown[] }[] = [];
    const capture = (query: Knex.Sql) => sent.push({ sql: query.sql, bindings: query.bindings });
    database.db.on("query", capture);
    await new ReportsService(database.db, () => new Date("2026-11-01T12:00:00Z")).report("sales", {
      from: "2025-11-02",
      to: "2026-11-01",
      by: "week",
    });
    database.db.off("query", capture);
    // The period's series goes first (the period before follows it).
    const series = sent.find((query) => query.sql.includes("date_trunc('week'"));
    expect(series, "the sales series query").toBeDefined();
    const { rows } = await explainer.query({
      text: `EXPLAIN (FORMAT JSON) ${series!.sql}`,
      values: series!.bindings as unknown[],
    });
    const plan = (rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    const grouping = nodesOf(plan).filter((node) =>
      (node["Group Key"] ?? []).some((key) => key.includes("date_trunc('week'")),
    );
    expect(grouping.length).toBeGreaterThan(0);
    // 53 weeks (Mondays) touch the period; grouped from day rows, the estimate is PostgreSQL's
    // default of 200 groups at most, never one per order (20,000).
    for (const node of grouping) expect(node["Plan Rows"], node["Node Type"]).toBeLessThanOrEqual(366);
  });
});
