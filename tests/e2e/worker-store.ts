import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { childEnvironment } from "../support/child-environment";
import { courierFakePorts } from "../support/courier-fake-ports";
import { LEOPARDS_KEY, LEOPARDS_PASSWORD, POSTEX_TOKEN } from "../support/courier-fakes";

/**
 * Each Playwright worker has a store of its own (tests/e2e/fixtures.ts starts it): the production
 * build (`node build/node/main.js`) on a fresh embedded database with the demo data, in a
 * DATA_DIR of its own, on a port of its own, with the couriers' fakes of its own. Worker n (its
 * parallel index, 0 or 1) listens on E2E_PORT + n (E2E_PORT: 3210 unless set), its fakes on that
 * port + 10000 (PostEx) and + 20000 (Leopards), its files under test-results/e2e-data-<n>. So two
 * workers never see each other's orders, mails, texts or parcels, and worktrees running their
 * journeys side by side, each with its own E2E_PORT (a hundred apart), never share a port.
 */
export type WorkerStore = {
  parallelIndex: number;
  port: number;
  baseURL: string;
  /** The store's DATA_DIR (relative to the repository); its backups go beside it (`<dataDir>-backups`). */
  dataDir: string;
  /** Mails, as .eml files (the store has no SMTP_URL). */
  outboxDir: string;
  /** Texts (WhatsApp, SMS) as files (the store has neither). */
  messagesDir: string;
  courierFakes: { postex: number; leopards: number };
};

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);

export function workerStore(parallelIndex: number): WorkerStore {
  const port = E2E_PORT + parallelIndex;
  const dataDir = `test-results/e2e-data-${parallelIndex}`;
  return {
    parallelIndex,
    port,
    baseURL: `http://127.0.0.1:${port}`,
    dataDir,
    outboxDir: `${dataDir}/outbox`,
    messagesDir: `${dataDir}/messages`,
    courierFakes: courierFakePorts(port),
  };
}

/**
 * The store of the worker this code runs in. Playwright sets TEST_PARALLEL_INDEX in a worker
 * before it loads the test files, so module-level constants may use it; the `store` fixture
 * checks that it names the worker's own (tests/e2e/fixtures.ts).
 */
export function thisWorkersStore(): WorkerStore {
  return workerStore(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
}

export type RunningStore = { stop(): Promise<void> };

/**
 * The couriers' fakes (tests/support/courier-fakes-server.ts) and then the store, each a process
 * that stops with its parent (the worker), and answers once the store's /readyz does.
 */
export async function startWorkerStore(store: WorkerStore): Promise<RunningStore> {
  // A new database refuses to start over the backups of an earlier one: both go.
  for (const dir of [store.dataDir, `${store.dataDir}-backups`]) fs.rmSync(dir, { recursive: true, force: true });
  const fakes = startProcess(
    "courier fakes",
    [
      "--import",
      "tsx",
      "tests/support/courier-fakes-server.ts",
      ...[store.courierFakes.postex, store.courierFakes.leopards].map(String),
    ],
    childEnvironment(),
  );
  const processes = [fakes];
  try {
    await untilAnswered(fakes, `http://127.0.0.1:${store.courierFakes.leopards}/__fake/ready`, 30_000);
    const server = startProcess(
      `store ${store.parallelIndex}`,
      // Production's entry as `npm start` runs it; the preload only stops it when the worker is gone.
      ["--import", pathToFileURL(path.resolve("tests/support/stop-with-parent.mjs")).href, "build/node/main.js"],
      // Only these settings: one exported in the caller's shell (SMTP_URL, DATABASE_URL…) never reaches it.
      childEnvironment({
        NODE_ENV: "production",
        PORT: String(store.port),
        HOST: "127.0.0.1",
        DATA_DIR: store.dataDir,
        PUBLIC_URL: store.baseURL,
        RATE_LIMITS: "off",
        LOG_LEVEL: "warn",
        // Both couriers on, against the fakes above; the manual courier stays beside them.
        POSTEX_API_URL: `http://127.0.0.1:${store.courierFakes.postex}/services/integration/api/order`,
        POSTEX_TOKEN,
        POSTEX_PICKUP_ADDRESS_CODE: "001",
        LEOPARDS_API_URL: `http://127.0.0.1:${store.courierFakes.leopards}/api/`,
        LEOPARDS_API_KEY: LEOPARDS_KEY,
        LEOPARDS_API_PASSWORD: LEOPARDS_PASSWORD,
        LEOPARDS_ORIGIN_CITY: "789",
        // Parcels followed every six seconds: a journey sees the courier's news without waiting long.
        COURIER_SYNC_MINUTES: "0.1",
      }),
    );
    processes.unshift(server);
    await untilAnswered(server, `${store.baseURL}/readyz`, 120_000);
  } catch (error) {
    await Promise.all(processes.map((child) => child.stop()));
    throw error;
  }
  return {
    // The store first (it may still call a courier while it stops), then the fakes.
    async stop() {
      for (const child of processes) await child.stop();
    },
  };
}

type Started = {
  child: ChildProcess;
  name: string;
  output(): string;
  exited: Promise<void>;
  stop(): Promise<void>;
};

function startProcess(name: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", (chunk: Buffer) => {
    keep(chunk);
    // What a store says on stderr is worth seeing beside the journeys, as Playwright's webServer showed it.
    process.stderr.write(`[${name}] ${chunk.toString("utf8")}`);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    name,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      // The store finishes its requests and stops its PostgreSQL (within 15 seconds); then it is ended.
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function untilAnswered(started: Started, url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void started.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${started.name} exited before ${url} answered:\n${started.output()}`);
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (answer.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
