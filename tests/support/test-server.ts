import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { pino, type Logger } from "pino";
import type { Express } from "express";
import type * as ServerBuild from "../../server/index";
import type { Config, JobRunner, PageCache, Services } from "../../server/index";
import { createTestDatabase, type TestDatabase } from "./test-database";

export type TestServer = {
  baseUrl: string;
  config: Config;
  services: Services;
  database: TestDatabase;
  /** Present when started with PAGE_CACHE=on. */
  pageCache: PageCache | null;
  /** The Express app itself, so that tests can read its route table (tests/integration/authorization-matrix). */
  app: Express;
  /**
   * Present when started with `mail`: this server's job runner, as the store starts it (mail by
   * SMTP_URL or .eml files under DATA_DIR, stock alerts); `runDueJobs()` runs what is due now.
   */
  jobs: JobRunner | null;
  close(): Promise<void>;
};

let serverBuild: Promise<typeof ServerBuild> | null = null;
/**
 * The one server build that production runs (build/server/index.js: the Express app, the domain
 * and the pages), made current by the global setup and loaded natively, as `node` loads it.
 */
export function loadServerBuild(): Promise<typeof ServerBuild> {
  serverBuild ??= import(pathToFileURL(path.resolve("build/server/index.js")).href) as Promise<typeof ServerBuild>;
  return serverBuild;
}

/**
 * The whole store on a loopback port: the real Express app, the real page build and a real
 * PostgreSQL database of the test file's own. Nothing is mocked.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    /** Another app server on this database (it stays when this one closes). */ shareDatabaseOf?: TestServer;
    /** The app reaches the database through this port instead (a proxy a test can cut, tcp-proxy.ts). */
    databasePort?: number;
    /** Where the services read the time (tests move it instead of waiting). */
    clock?: () => Date;
    /** Start this server's job runner, as the store does, looking for jobs due later every `pollMs`. */
    mail?: { pollMs?: number; fileSweepMs?: number };
    /** Where the app logs (tests that read the log lines); silent otherwise. */
    logger?: Logger;
    /** The services' photo lane, made by the test from the build's PhotoLane (to see it, or fill it). */
    photoLane?: InstanceType<typeof ServerBuild.PhotoLane>;
  } = {},
): Promise<TestServer> {
  const {
    connectDatabase,
    loadConfig,
    createServices,
    startPageCache,
    createApp,
    createHttpServer,
    createMailTransport,
    startStoreJobs,
  } = await loadServerBuild();
  const database = options.shareDatabaseOf?.database ?? (await createTestDatabase());
  let appUrl = database.url;
  if (options.databasePort) {
    const viaPort = new URL(database.url);
    viaPort.hostname = "127.0.0.1";
    viaPort.port = String(options.databasePort);
    viaPort.searchParams.delete("host");
    appUrl = viaPort.href;
  }
  // The fixtures keep the direct connection (database.db); the app gets its own when it goes through a proxy.
  const appDb = appUrl === database.url ? database.db : connectDatabase(appUrl);
  const config = loadConfig({
    NODE_ENV: "production",
    PORT: "0",
    SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
    DATABASE_URL: appUrl,
    LOG_LEVEL: "silent",
    // Many log-ins from one address in a test file; the rate-limit tests turn them on.
    RATE_LIMITS: "off",
    ...env,
  });
  const logger = options.logger ?? pino({ level: "silent" });
  const services = createServices({ db: appDb, config, logger, clock: options.clock, photoLane: options.photoLane });
  const mailTransport = options.mail
    ? createMailTransport(config.mail, { publicUrl: config.publicUrl, replyTo: config.store.email })
    : null;
  const jobs =
    options.mail && mailTransport
      ? await startStoreJobs({
          connectionString: appUrl,
          db: appDb,
          services,
          logger,
          mail: {
            transport: mailTransport,
            maxAttempts: config.mail.maxAttempts,
            retrySeconds: config.mail.retrySeconds,
            fileSweepMs: options.mail.fileSweepMs,
          },
          backups: null,
          pollMs: options.mail.pollMs ?? 100,
        })
      : null;
  const sessionPool = new pg.Pool({ connectionString: appUrl, max: 3 });
  sessionPool.on("error", () => {});
  // Off unless a test asks (PAGE_CACHE=on): most tests change products by SQL and read at once.
  const pageCache = env.PAGE_CACHE === "on" ? startPageCache(appUrl, logger) : null;
  const app = createApp({
    config,
    logger,
    db: appDb,
    sessionPool,
    pageCache: pageCache?.cache,
    services,
    clientAssetsDir: path.resolve("build/client"),
  });
  const server = createHttpServer(app);
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    services,
    database,
    pageCache: pageCache?.cache ?? null,
    app,
    jobs,
    async close() {
      await jobs?.stop();
      mailTransport?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pageCache?.close();
      await sessionPool.end().catch(() => {});
      if (appDb !== database.db) await appDb.destroy().catch(() => {});
      if (!options.shareDatabaseOf) await database.drop();
    },
  };
}

/** A clock a test sets and moves: the services read it instead of the system's time. */
export class TestClock {
  private offsetMs = 0;
  private fixed: number | null = null;
  /** The clock for startTestServer: the system time moved by the test, or a time it set. */
  readonly now = (): Date => new Date((this.fixed ?? Date.now()) + this.offsetMs);
  set(instant: Date | string) {
    this.fixed = new Date(instant).getTime();
    this.offsetMs = 0;
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
  reset() {
    this.fixed = null;
    this.offsetMs = 0;
  }
}
