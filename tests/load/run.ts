/**
 * `npm run test:load`: the heavy runs that do not belong in `npm test` (bench/README.md, "Load and faults"),
 * on loopback only and bounded in time.
 *
 *   A. a mixed workload at 200 keep-alive connections for 60 s: no 5xx, no connection error,
 *      no oversell; requests/s and latency percentiles reported;
 *   B. PostgreSQL shut down and started again under load: clean 503s while it is away, recovery
 *      without restarting the app, no acknowledged order lost;
 *   C. SIGTERM under load: in-flight requests answered, new connections refused, exit 0.
 *
 * Options: --duration <s> (A, default 60), --connections <n> (A, default 200),
 * --fault-connections <n> (B and C, default 50), --customers <n> (default 300),
 * --scenarios A,B,C, --out <path without extension> (default bench/results/load; "-" for none),
 * --server-log <file> (everything the server writes, LOG_LEVEL=warn).
 * Exit code 1 when a check fails.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  CUSTOMER_PASSWORD,
  ControlledPostgres,
  LOAD_DATABASE,
  ensureBuild,
  machine,
  makeTempDir,
  prepareStore,
  startApp,
  type AppProcess,
} from "./environment";
import { keepAliveAgent } from "./http-load";
import { renderMarkdown } from "./report";
import { databaseRestart, mixedWorkload, sigtermUnderLoad, type ScenarioResult } from "./scenarios";
import { signIn } from "./workload";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "200" },
    "fault-connections": { type: "string", default: "50" },
    customers: { type: "string", default: "300" },
    scenarios: { type: "string", default: "A,B,C" },
    out: { type: "string", default: "bench/results/load" },
    "server-log": { type: "string" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const faultConnections = Number(values["fault-connections"]);
const customerCount = Number(values.customers);
const scenarios = new Set(values.scenarios!.split(",").map((name) => name.trim().toUpperCase()));
for (const [name, value] of Object.entries({ duration, connections, faultConnections, customerCount })) {
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
}

const tempDir = makeTempDir();
const postgres = new ControlledPostgres(path.join(tempDir, "postgres"));
let app: AppProcess | null = null;

async function cleanUp() {
  if (app?.alive()) {
    app.child.kill("SIGTERM");
    await Promise.race([app.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (app.alive()) app.child.kill("SIGKILL");
  }
  await postgres.stop().catch(() => {});
  fs.rmSync(tempDir, { recursive: true, force: true });
}
// Ctrl-C: leave no PostgreSQL or server behind.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the load run`);
    void cleanUp().finally(() => process.exit(130));
  });
}

async function main(): Promise<boolean> {
  const startedAt = Date.now();
  ensureBuild();
  log("starting PostgreSQL and preparing the store…");
  await postgres.start();
  const store = await prepareStore(postgres, customerCount);
  log(
    `store: ${store.products.length} products (${store.scarceProductIds.length} scarce), ${store.customers.length} customers`,
  );
  app = await startApp(postgres.urlFor(LOAD_DATABASE), { logFile: values["server-log"] });
  log(`server pid ${app.pid} at ${app.baseUrl}`);
  const agent = keepAliveAgent(Math.max(connections, faultConnections));
  const shoppers = await signIn({ host: app.host, port: app.port }, agent, store.customers, CUSTOMER_PASSWORD);
  log(`${shoppers.length} customers signed in (API token and page session each)`);
  const setup = { app, postgres, store, shoppers, agent };

  const results: ScenarioResult[] = [];
  const run = async (name: string, scenario: () => Promise<ScenarioResult>) => {
    if (!scenarios.has(name)) return;
    log(`scenario ${name}…`);
    const result = await scenario();
    log(`${result.name}: ${result.passed ? "PASSED" : "FAILED"}`);
    results.push(result);
  };
  await run("A", () => mixedWorkload(setup, { connections, seconds: duration }));
  await run("B", () =>
    databaseRestart(setup, {
      connections: faultConnections,
      warmSeconds: 5,
      downSeconds: 5,
      recoveryBoundSeconds: 30,
      hangBoundMs: 15_000,
    }),
  );
  await run("C", () => sigtermUnderLoad(setup, { connections: faultConnections, warmSeconds: 5, graceSeconds: 10 }));
  agent.destroy();
  await store.db.destroy();

  const report = {
    command: `npm run test:load -- ${process.argv.slice(2).join(" ")}`.trim(),
    machine: machine(),
    totalSeconds: Math.round((Date.now() - startedAt) / 1000),
    passed: results.every((result) => result.passed),
    scenarios: results,
    // What the server logged (LOG_LEVEL=warn), counted by level and message; --server-log keeps the lines.
    serverLog: app.logCounts(),
  };
  const markdown = renderMarkdown(report);
  console.log(`\n${markdown}`);
  if (values.out !== "-") {
    fs.mkdirSync(path.dirname(values.out!), { recursive: true });
    fs.writeFileSync(`${values.out}.json`, `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(`${values.out}.md`, markdown);
    log(`results written to ${values.out}.json and ${values.out}.md`);
  }
  return report.passed;
}

function log(message: string) {
  console.log(`[load ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

let passed = false;
try {
  passed = await main();
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(passed ? 0 : 1);
