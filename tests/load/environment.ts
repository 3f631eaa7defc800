import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { isEmptyStore, seedDemoData } from "../../seeds/demo";
import { connectDatabase, type Database } from "../../server/db/database";
import { migrateToLatest } from "../../server/jobs/migrate";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded-postgres";
import { hashPassword } from "../../server/modules/accounts/passwords";

/**
 * What the load runner controls: a PostgreSQL cluster it can stop and start again at the same
 * address (its socket folder and passwords stay) while the app keeps running (the app gets
 * DATABASE_URL, so it never owns the cluster), a realistic store in it, and the real built server
 * process. The app connects as the store's role, as it does on the embedded default.
 */
export class ControlledPostgres {
  private cluster: EmbeddedDatabase | null = null;
  private urls: Pick<EmbeddedDatabase, "storeUrlFor" | "prepareStoreDatabase"> | null = null;
  readonly log: string[] = [];

  constructor(readonly dir: string) {}

  async start(): Promise<void> {
    if (this.cluster) return;
    this.cluster = await startEmbeddedPostgres(this.dir, (line) => this.keep(line));
    this.urls = this.cluster;
  }

  /** A real shutdown (PostgreSQL's fast shutdown, SIGINT): every connection is cut. */
  async stop(): Promise<void> {
    const cluster = this.cluster;
    this.cluster = null;
    await cluster?.stop();
  }

  /** A database as the store's role (the same while the cluster is stopped and started again). */
  urlFor(database: string): string {
    if (!this.urls) throw new Error("PostgreSQL has not been started");
    return this.urls.storeUrlFor(database);
  }

  async createStoreDatabase(database: string): Promise<void> {
    if (!this.cluster) throw new Error("PostgreSQL is not running");
    await this.cluster.prepareStoreDatabase(database, { create: true });
  }

  private keep(line: string) {
    this.log.push(line.trim());
    if (this.log.length > 200) this.log.shift();
  }
}

export const LOAD_DATABASE = "waqt_load";
export const CUSTOMER_PASSWORD = "load-customer-password";

export type Store = {
  db: Database;
  products: { id: string; name: string; stock: number }[];
  /** Products with little stock, which many shoppers try to buy at once. */
  scarceProductIds: string[];
  customers: { id: string; email: string }[];
  searchTerms: string[];
};

/**
 * The demo catalogue (48 watches) and some hundreds of customers. Stock is made plentiful except
 * for a few scarce watches, so that checkouts keep succeeding for the whole run while some
 * products are fought over (the oversell check has something to check).
 */
export async function prepareStore(postgres: ControlledPostgres, customerCount: number): Promise<Store> {
  await postgres.createStoreDatabase(LOAD_DATABASE);
  const db = connectDatabase(postgres.urlFor(LOAD_DATABASE), { poolMax: 4 });
  await migrateToLatest(db);
  if (await isEmptyStore(db)) await seedDemoData(db);

  const products: { id: string; name: string }[] = await db("products").select("id", "name").orderBy("name");
  const scarceProductIds = products.filter((_, index) => index % 12 === 5).map((product) => product.id);
  await db("products").update({ stock: 100_000 });
  await db("products").whereIn("id", scarceProductIds).update({ stock: 5 });

  // One cheap hash (bcrypt cost 4) for every load customer: log-ins are part of the setup, not
  // of what is measured, and cost 12 would spend a minute of both cores on them.
  const passwordHash = await hashPassword(CUSTOMER_PASSWORD, 4);
  const existing = new Set(
    (await db("users").select("email").where("email", "like", "load-%@example.com")).map(
      (row: { email: string }) => row.email,
    ),
  );
  const rows = [];
  for (let index = 0; index < customerCount; index++) {
    const email = `load-${String(index).padStart(4, "0")}@example.com`;
    if (!existing.has(email)) rows.push({ name: `Load Customer ${index}`, email, passwordHash, role: "customer" });
  }
  if (rows.length > 0) await db.batchInsert("users", rows, 200);
  const customers: { id: string; email: string }[] = await db("users")
    .select("id", "email")
    .where("email", "like", "load-%@example.com")
    .orderBy("email")
    .limit(customerCount);

  const withStock: { id: string; name: string; stock: number }[] = await db("products")
    .select("id", "name", "stock")
    .orderBy("name");
  const brands: string[] = (await db("products").distinct("brand"))
    .map((row: { brand: string }) => row.brand)
    .filter(Boolean);
  return {
    db,
    products: withStock,
    scarceProductIds,
    customers,
    searchTerms: [
      ...brands.slice(0, 6),
      "steel",
      "gold",
      "chronograph",
      "leather",
      "automatic",
      "nothing-matches-this",
    ],
  };
}

/** Per product: stock now plus units in orders that are not Cancelled. Checkouts never change it. */
export async function stockBooks(db: Database): Promise<Map<string, { stock: number; ordered: number }>> {
  const { rows } = await db.raw<{ rows: { id: string; stock: number; ordered: number }[] }>(`
    SELECT p.id, p.stock,
           coalesce((SELECT sum(oi.quantity) FROM order_items oi JOIN orders o ON o.id = oi.order_id
                     WHERE oi.product_id = p.id AND o.status <> 'Cancelled'), 0)::int AS ordered
    FROM products p`);
  return new Map(rows.map((row) => [row.id, { stock: row.stock, ordered: row.ordered }]));
}

/** Oversell and lost-stock check: every product's books balance, and no stock is negative. */
export async function checkStockBooks(
  db: Database,
  before: Map<string, { stock: number; ordered: number }>,
): Promise<{ ok: boolean; problems: string[]; unitsOrdered: number; soldOut: number }> {
  const after = await stockBooks(db);
  const problems: string[] = [];
  let unitsOrdered = 0;
  let soldOut = 0;
  for (const [id, was] of before) {
    const now = after.get(id);
    if (!now) {
      problems.push(`product ${id} disappeared`);
      continue;
    }
    if (now.stock < 0) problems.push(`product ${id} has stock ${now.stock}`);
    if (now.stock === 0 && was.stock > 0) soldOut++;
    unitsOrdered += now.ordered - was.ordered;
    if (was.stock + was.ordered !== now.stock + now.ordered) {
      problems.push(
        `product ${id}: stock ${was.stock} + ordered ${was.ordered} before, stock ${now.stock} + ordered ${now.ordered} after`,
      );
    }
  }
  return { ok: problems.length === 0, problems, unitsOrdered, soldOut };
}

/** Which of these order ids are not in the database. */
export async function missingOrders(db: Database, ids: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (let start = 0; start < ids.length; start += 1000) {
    const chunk = ids.slice(start, start + 1000);
    for (const row of await db("orders").select("id").whereIn("id", chunk)) found.add(row.id);
  }
  return ids.filter((id) => !found.has(id));
}

export function ensureBuild() {
  const result = spawnSync("npx", ["tsx", "server/cli/ensure-build.ts"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("the build failed");
}

export type AppProcess = {
  child: ChildProcess;
  pid: number;
  host: string;
  port: number;
  baseUrl: string;
  output(): string;
  /** How many log lines of each level and message the server wrote (plain text lines as "text"). */
  logCounts(): Record<string, number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  alive(): boolean;
};

/** The real production server (`node build/node/main.js`) on a free loopback port. */
export async function startApp(
  databaseUrl: string,
  options: {
    env?: Record<string, string>;
    /** Every line the server writes is also appended here. */ logFile?: string;
  } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const host = "127.0.0.1";
  const baseUrl = `http://${host}:${port}`;
  const child = spawn(process.execPath, ["build/node/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
      HOST: host,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: "warn",
      RATE_LIMITS: "off",
      SEED_DEMO_DATA: "off",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const logFile = options.logFile ? fs.createWriteStream(options.logFile, { flags: "a" }) : null;
  const counts: Record<string, number> = {};
  let partial = "";
  const LEVELS: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
  const keep = (chunk: Buffer) => {
    logFile?.write(chunk);
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      let key = "text";
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string };
        key = `${LEVELS[entry.level ?? 0] ?? entry.level} ${entry.msg ?? ""}`.trim();
      } catch {
        // a plain line (a stack trace, console output)
      }
      counts[key] = (counts[key] ?? 0) + 1;
    }
    output += chunk.toString();
    // Only the tail matters for a report; a long run must not keep every warning.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  // LOG_LEVEL=warn hides the "running at" line: readiness is asked for instead.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited during start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not start within 60 s:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return {
    child,
    pid: child.pid!,
    host,
    port,
    baseUrl,
    output: () => output,
    logCounts: () => ({ ...counts }),
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a new TCP connection to the port is refused (nothing listens). */
export function connectionRefused(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2_000);
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", (error) => resolve((error as { code?: string }).code === "ECONNREFUSED"));
  });
}

export function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

export function makeTempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "waqt-load-"));
}

export function machine() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    ramGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    date: new Date().toISOString(),
  };
}
