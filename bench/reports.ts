/**
 * `npm run bench:reports` (and a step of `npm run bench`, `--only reports` alone): each admin
 * report (docs/product.md, "Reports") asked through GET /api/v1/reports/{name} over 100,000 orders
 * spread over a year (bench/database.ts, seedReportOrders), for the last 30 days and for the whole
 * year, 10 connections. No report is cached anywhere (every request runs its SQL), so every answer
 * is a cache miss. Writes bench/results/reports.{json,md} (or --out). The target (RULINGS.md,
 * fifth wave): p99 under 200 ms, an absolute figure, reported with the machine's load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../server/settings/config";
import { createLogger } from "../server/logging/logger";
import { hashPassword } from "../server/modules/accounts/passwords";
import { REPORT_NAMES } from "../server/modules/reports/report-period.shared";
import { rollUpReportDays } from "../server/modules/reports/report-rollups";
import { createServices } from "../server/start-up/services";
import { BENCH_PASSWORD, openBenchDatabase, seedBenchData, seedReportOrders, type BenchDatabase } from "./database";
import { runLoad, type LoadResult } from "./load";
import { REPORT_P99_TARGET_MS, meetsTarget, waitForArchivedWal, waitForIdleDatabase } from "./report-rows";
import { buildStore, ROOT, startStore, type Started } from "./processes";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "100000" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    out: { type: "string", default: "bench/results" },
    "skip-build": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    /** A comma list of row ids (e.g. `report-products-30d,report-stock-year`): only those rows run. */
    only: { type: "string" },
  },
});

const ADMIN_EMAIL = "reports-admin@bench.waqt.pk";

type ReportRow = {
  id: string;
  report: string;
  range: "30 days" | "year";
  from: string;
  to: string;
  /** Seconds waited before the row for PostgreSQL to finish the queries still running. */
  waitedForIdleSeconds: number;
  result: LoadResult;
};

/** YYYY-MM-DD of a moment in Pakistan, `daysBefore` days earlier. */
function karachiDay(now: Date, daysBefore: number): string {
  const moment = new Date(now.getTime() - daysBefore * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Karachi" }).format(moment);
}

async function main() {
  const orders = Number(args.orders);
  const duration = Number(args.duration);
  const warmup = Number(args.warmup);
  const connections = Number(args.connections);
  const onlyRows = args.only ? new Set(args.only.split(",").map((id) => id.trim())) : null;
  if (!args["skip-build"]) buildStore();
  const loadAverageAtStart = os.loadavg();
  const database = await openBenchDatabase({ keep: args.keep! });
  let store: Started | null = null;
  try {
    console.log(`Seeding ${orders.toLocaleString("en")} orders over a year for the reports…`);
    await seedBenchData(database.db, {
      products: 2000,
      users: 0,
      orders: 0,
      browsers: 0,
      checkoutShoppers: 0,
      lastUnitShoppers: 0,
    });
    const seeded = await seedReportOrders(database.db, orders);
    console.log(`Seeded in ${seeded.seconds.toFixed(1)} s.`);
    // The store's deadline sweeps, as its crontab has run them all year (every minute): a year of
    // Pending orders awaiting a transfer or a confirmation is what they cancel. Left to the store
    // started below, they cancelled a batch a minute during the rows, each marking its order's day
    // for the next roll-up, so that later rows computed more and more of the year live.
    const swept = await sweepDeadlines(database);
    console.log(`The deadline sweeps cancelled ${swept} orders past their deadlines.`);
    // The store's report-rollups job at its start, as a running store has done: every closed day
    // is kept, today is computed live.
    const rollingUp = Date.now();
    const { days } = await rollUpReportDays(database.db, new Date());
    // A store a year old has long been vacuumed; the seed has just written and rewritten every
    // order, so autovacuum would do that work while the first rows run, its CPU counted in
    // PostgreSQL's per request (docs/decisions/2026-11-26-report-speed.md, "Still owed").
    await database.db.raw("VACUUM (ANALYZE)");
    console.log(`Rolled ${days} days up in ${((Date.now() - rollingUp) / 1000).toFixed(1)} s.`);
    await database.db("users").insert({
      name: "Reports Admin",
      email: ADMIN_EMAIL,
      passwordHash: await hashPassword(BENCH_PASSWORD, 4),
      role: "admin",
    });
    const archiving = await waitForArchivedWal(() => database.segmentsToArchive());
    console.log(`The seed's WAL archived (waited ${archiving.toFixed(1)} s).`);
    store = await startStore({ databaseUrl: database.url });
    const mailing = await waitForSentMail(database);
    console.log(`The sweeps' mails sent by the store (waited ${mailing.toFixed(1)} s).`);
    const token = await adminToken(store);

    const now = new Date();
    const ranges = [
      { range: "30 days" as const, from: karachiDay(now, 29), to: karachiDay(now, 0) },
      { range: "year" as const, from: karachiDay(now, 364), to: karachiDay(now, 0) },
    ];
    const rows: ReportRow[] = [];
    for (const name of REPORT_NAMES) {
      for (const { range, from, to } of ranges) {
        const id = `report-${name}-${range === "year" ? "year" : "30d"}`;
        if (onlyRows && !onlyRows.has(id)) continue;
        const waitedForIdleSeconds = await waitForIdleDatabase(database.db);
        process.stdout.write(`  ${id.padEnd(28)} `);
        const result = await runLoad({
          id,
          title: `API GET /api/v1/reports/${name}, ${range}`,
          baseline: null,
          server: store,
          connections,
          duration,
          warmup,
          headers: { accept: "application/json", authorization: `Bearer ${token}` },
          requests: [{ path: `/api/v1/reports/${name}?from=${from}&to=${to}` }],
          postmasterPid: database.postmasterPid,
        });
        console.log(
          `${result.requestsPerSecond.toFixed(0).padStart(5)} req/s  p50 ${result.latencyMs.p50} ms  p99 ${result.latencyMs.p99} ms  errors ${result.errors}  load ${result.loadAverage.toFixed(2)}  waited ${waitedForIdleSeconds.toFixed(1)} s  ${meetsTarget(result) ? "meets" : "MISSES"}`,
        );
        rows.push({ id, report: name, range, from, to, waitedForIdleSeconds, result });
      }
    }
    const outDir = path.resolve(ROOT, args.out!);
    fs.mkdirSync(outDir, { recursive: true });
    const summary = {
      date: now.toISOString(),
      orders,
      connections,
      duration,
      machine: { cpus: os.availableParallelism(), loadAverageAtStart, loadAverageAtEnd: os.loadavg() },
      targetP99Ms: REPORT_P99_TARGET_MS,
      rows,
    };
    fs.writeFileSync(path.join(outDir, "reports.json"), JSON.stringify(summary, null, 2) + "\n");
    const markdown = renderReportsTable(summary);
    fs.writeFileSync(path.join(outDir, "reports.md"), markdown);
    console.log("\n" + markdown);
  } finally {
    await store?.stop();
    await database.close();
  }
}

function renderReportsTable(summary: {
  date: string;
  orders: number;
  connections: number;
  machine: { cpus: number; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  rows: ReportRow[];
}): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(" / ");
  const lines = [
    `# Reports over ${summary.orders.toLocaleString("en")} orders`,
    "",
    `${summary.date}, ${summary.machine.cpus} CPUs, load average (1/5/15 min) ${load(summary.machine.loadAverageAtStart)} at the start, ` +
      `${load(summary.machine.loadAverageAtEnd)} at the end; ${summary.connections} connections, every request computed (no report is cached).`,
    "",
    `Each row starts once PostgreSQL runs no other query of the bench's database (waited: seconds before the row); a row meets the target only with answers, no error and p99 under ${REPORT_P99_TARGET_MS} ms.`,
    "",
    `| id | report | days | requests | req/s | p50 ms | p99 ms | errors | queries/req | waited s | load (1 min) | p99 < ${REPORT_P99_TARGET_MS} ms |`,
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const row of summary.rows) {
    const { result } = row;
    lines.push(
      `| \`${row.id}\` | ${row.report} | ${row.from} to ${row.to} | ${result.requests} | ${result.requestsPerSecond.toFixed(0)} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${result.errors} | ${result.queries?.perRequest.toFixed(1) ?? "–"} | ${row.waitedForIdleSeconds.toFixed(1)} | ${result.loadAverage.toFixed(2)} | ${meetsTarget(result) ? "yes" : "**no**"} |`,
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * Runs the store's own deadline sweeps (server/jobs/job-tasks.ts: unpaid transfers, confirmations)
 * until they find nothing: each takes a batch a run. Answers the orders they cancelled.
 */
async function sweepDeadlines(database: BenchDatabase): Promise<number> {
  // The services want a data folder of their own (uploads, backups); the sweeps write nothing there.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-bench-sweeps-"));
  try {
    const config = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      SESSION_SECRET: "bench-session-secret-0123456789-0123456789",
      DATA_DIR: dataDir,
    });
    const services = createServices({ db: database.db, config, logger: createLogger("silent") });
    let cancelled = 0;
    for (;;) {
      const unpaid = await services.advancePayment.cancelUnpaid();
      const unconfirmed = await services.orderConfirmation.runDeadlines();
      if (unpaid.cancelled + unconfirmed.cancelled === 0) return cancelled;
      cancelled += unpaid.cancelled + unconfirmed.cancelled;
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Waits (at most two minutes) until the store has sent every mail of its outbox, the sweeps' among them. */
async function waitForSentMail(database: BenchDatabase): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { rows } = await database.db.raw<{ rows: { waiting: number }[] }>(
      "SELECT count(*)::int AS waiting FROM outbox WHERE state = 'queued'",
    );
    if (rows[0]!.waiting === 0 || Date.now() - started > 120_000) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function adminToken(server: Started): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: BENCH_PASSWORD }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (response.status !== 200 || !body.data?.token) throw new Error(`the admin's log-in failed: ${response.status}`);
  return body.data.token;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
