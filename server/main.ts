import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RequestHandler } from "express";
import pg from "pg";
import type { ServerBuild } from "react-router";
import { isEmptyStore, seedDemoData } from "../seeds/demo";
import { demoAccounts } from "../seeds/demo-accounts";
import { apiRoutes } from "./api-routes";
import { createApp } from "./app";
import { ConfigError, loadConfig, type Config } from "./config";
import { startBackupSchedule } from "./backups/backup-schedule";
import { checkDatabase, migrateToLatest } from "./db/database";
import { embeddedClusterDir, openDatabase, type OpenDatabase } from "./db/open-database";
import { createLogger } from "./logger";
import { startPageCache } from "./http/page-cache";
import { createServices } from "./services";

/** The folder with package.json: server/main.ts runs in development, build/node/main.js in production. */
const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
const SHUTDOWN_GRACE_MS = 10_000;

/** Set once a database is open, so that a failed start does not leave PostgreSQL running. */
let closeDatabaseOnFailure: (() => Promise<void>) | null = null;

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    exitWithConfigError(error);
  }
  const logger = createLogger(config.logLevel);

  let database: OpenDatabase;
  try {
    database = await openDatabase(config, (line) => logger.debug({ postgres: line.trim() }));
    closeDatabaseOnFailure = database.close;
    await checkDatabase(database.db);
  } catch (error) {
    logger.debug({ err: error }, "database connection failed");
    await closeDatabaseOnFailure?.();
    exitWithConfigError(
      new ConfigError(
        config.databaseUrl ? "DATABASE_URL" : "DATA_DIR",
        config.databaseUrl
          ? `does not answer (${describeConnectionError(error)})`
          : `could not hold the embedded database (${describeConnectionError(error)})`,
      ),
    );
  }
  const { db } = database;

  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");

  if (config.seedDemoData && (await isEmptyStore(db))) {
    const seeded = await seedDemoData(db);
    logger.info(seeded, "demo data seeded (first start)");
    logger.info(
      `demo accounts: admin ${demoAccounts.admin.email} / ${demoAccounts.admin.password}, customer ${demoAccounts.customer.email} / ${demoAccounts.customer.password}`,
    );
  }

  const services = createServices({ db, config, logger });
  if (config.initialAdmin) {
    const outcome = await services.accounts.ensureAdmin(config.initialAdmin);
    logger.info({ email: config.initialAdmin.email, outcome }, "administrator from ADMIN_EMAIL");
  }

  const sessionPool = new pg.Pool({ connectionString: database.url, max: 5, connectionTimeoutMillis: 5_000 });
  sessionPool.on("error", (error) => logger.warn({ err: error }, "session pool connection lost"));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  let viteMiddlewares: RequestHandler | undefined;
  let closeVite = async () => {};
  if (config.env === "development") {
    const vite = await import("vite");
    const viteServer = await vite.createServer({
      root: PROJECT_ROOT,
      server: { middlewareMode: true, hmr: { host: "127.0.0.1" } },
    });
    viteMiddlewares = viteServer.middlewares;
    build = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
    closeVite = () => viteServer.close();
  } else {
    build = (await import(pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href)) as ServerBuild;
  }

  const pageCache = config.pageCache ? startPageCache(database.url, logger) : null;

  const app = createApp({
    config,
    logger,
    db,
    sessionPool,
    pageCache: pageCache?.cache,
    services,
    apiRoutes,
    build,
    viteMiddlewares,
    clientAssetsDir: viteMiddlewares ? undefined : path.join(PROJECT_ROOT, "build/client"),
  });

  // Backups belong to the embedded cluster; a DATABASE_URL's operator owns its own.
  const backups = database.embedded
    ? startBackupSchedule({
        connectionString: database.url,
        adminUrl: database.embedded.adminUrl,
        clusterDir: embeddedClusterDir(config.dataDir),
        dataDir: config.dataDir,
        backupDir: config.backupDir,
        keepDays: config.backupKeepDays,
        logger,
      })
    : null;

  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info(`${config.store.name} is running at http://${config.host === "127.0.0.1" ? "localhost" : config.host}:${port}`);
  });
  server.on("error", (error) => {
    logger.fatal({ err: error }, "server could not listen");
    void database.close().finally(() => process.exit(1));
  });

  let shuttingDown = false;
  // While stopping, every answer says Connection: close and its connection closes after it.
  // Node keeps a kept-alive connection open after server.close(), so clients under load went on
  // sending on theirs until the grace period cut whatever was in flight then (tests/load, C).
  server.prependListener("request", (_req, res) => {
    if (shuttingDown && !res.headersSent) res.setHeader("Connection", "close");
  });
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    shuttingDown = true;
    logger.info(`${signal}: finishing in-flight requests, then stopping`);
    // Stop accepting; idle keep-alive connections close now, busy ones after their answer: an
    // answer begun before the signal went out keep-alive, so its connection is closed as soon
    // as it is idle (the sweep), unless a request comes first, which is answered with close.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await closed;
    clearInterval(sweep);
    clearTimeout(timer);
    await closeVite();
    await pageCache?.close();
    await sessionPool.end().catch(() => {});
    // Every committed transaction reaches the archive before PostgreSQL stops.
    await backups?.stop();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

function findProjectRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

function describeConnectionError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code ? `${code}: ${error.message.split("\n")[0]}` : error.message.split("\n")[0]!;
  }
  return String(error);
}

function exitWithConfigError(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

main().catch(async (error) => {
  console.error("Failed to start:", error instanceof Error ? error.message : error);
  await closeDatabaseOnFailure?.().catch(() => {});
  process.exit(1);
});
