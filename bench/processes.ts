import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/** The built store and the built baseline, started as real `node` processes in production mode. */

export const ROOT = path.resolve(import.meta.dirname, "..");
const BASELINE_DIR = path.join(ROOT, "bench/baseline");
const BASELINE_SERVER = path.join(BASELINE_DIR, "build/node/server.js");

export function buildStore() {
  run("npx", ["tsx", "server/cli/ensure-build.ts"]);
}

/** Builds the baseline app and its server when missing or older than their sources. */
export function buildBaseline() {
  const sources = ["app", "react-router.config.ts", "vite.config.ts", "vite.server.config.ts", "server.ts"].map(
    (entry) => path.join(BASELINE_DIR, entry),
  );
  const builtAt = fs.existsSync(BASELINE_SERVER) ? fs.statSync(BASELINE_SERVER).mtimeMs : 0;
  const changedAt = Math.max(
    ...sources.map(newestMtime),
    newestMtime(path.join(ROOT, "server/http/security-headers.ts")),
  );
  if (builtAt > changedAt) return;
  console.log("Building the baseline app…");
  run("npx", ["react-router", "build", "bench/baseline"], { NODE_ENV: "production" });
  run("npx", ["vite", "build", "--config", "bench/baseline/vite.server.config.ts"], { NODE_ENV: "production" });
}

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry))));
}

export type Started = {
  name: string;
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
  exited: Promise<number | null>;
};

/** Same settings for both: NODE_ENV=production, loopback, quiet logs, no rate limits. */
export async function startStore(options: {
  databaseUrl: string;
  nodeFlags?: string[];
  countQueries?: boolean;
  /** More settings (the confirmation's channels with --messaging). */
  env?: Record<string, string>;
}): Promise<Started> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return startProcess(
    "store",
    ["--enable-source-maps", ...(options.nodeFlags ?? []), "build/node/main.js"],
    port,
    {
      DATABASE_URL: options.databaseUrl,
      SESSION_SECRET: "bench-session-secret-0123456789-0123456789",
      RATE_LIMITS: "off",
      LOG_LEVEL: "warn",
      SEED_DEMO_DATA: "off",
      PUBLIC_URL: baseUrl,
      BENCH_QUERY_COUNT: options.countQueries === false ? "off" : "on",
      ...options.env,
    },
    "/readyz",
  );
}

export async function startBaseline(): Promise<Started> {
  const port = await freePort();
  return startProcess("baseline", ["--enable-source-maps", BASELINE_SERVER], port, {}, "/json");
}

async function startProcess(
  name: string,
  args: string[],
  port: number,
  env: Record<string, string>,
  readyPath: string,
): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr!.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${output}`);
    try {
      if ((await fetch(baseUrl + readyPath)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not become ready in 60 s:\n${output}`);
    }
    await sleep(200);
  }
  return {
    name,
    pid: child.pid!,
    baseUrl,
    exited,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
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

export function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

// ---- Resource use, from /proc ----

const TICKS_PER_SECOND = 100;

/** Resident set size in MB. */
export function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) of a process, in ms; with `children`, also of its reaped children. */
export function cpuMs(pid: number, children = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[11..14] are utime, stime, cutime, cstime (fields 14-17 of proc(5)).
    const own = Number(fields[11]) + Number(fields[12]);
    const reaped = children ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((own + reaped) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU time of a PostgreSQL cluster: the postmaster, its live backends and those already gone. */
export function clusterCpuMs(postmasterPid: number): number {
  let total = cpuMs(postmasterPid, true);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmasterPid) total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Waits until a process has been idle (under a tenth of a CPU) for a second, at most
 * `maxMs`: a store just started reads the filters' index of a large catalogue (several seconds
 * of CPU), and a warm-up begun meanwhile would count it. Answers the seconds waited.
 */
export async function waitUntilIdle(pid: number, maxMs = 60_000): Promise<number> {
  const started = Date.now();
  let quietSamples = 0;
  let before = cpuMs(pid);
  while (quietSamples < 4 && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuMs(pid);
    quietSamples = now - before < 25 ? quietSamples + 1 : 0;
    before = now;
  }
  return (Date.now() - started) / 1000;
}
