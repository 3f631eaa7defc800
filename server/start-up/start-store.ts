import type http from "node:http";
import path from "node:path";
import type { RequestHandler } from "express";
import pg from "pg";
import { isEmptyStore, seedDemoData } from "../../seeds/demo";
import { createApp } from "./app";
import { ConfigError, loadConfig, networkExposure, type Config } from "../settings/config";
import { describeCouriers } from "../settings/courier-settings";
import { backupDirSharesDataDirDisk, BackupsOfAnEarlierDatabase } from "../backups/backup-dir";
import { startWalSwitchAtStop } from "../backups/backup-schedule";
import { checkDatabase, connectsAsSuperuser } from "../db/database";
import { migrateToLatest } from "../jobs/migrate";
import { embeddedClusterDir, openDatabase, type OpenDatabase } from "./open-database";
import { createHttpServer } from "../http/http-server";
import { startPageCache } from "../http/page-cache";
import { createLogger, type Logger } from "../logging/logger";
import { createMailTransport } from "../mail/mail-transport";
import { PROJECT_ROOT } from "../settings/project-root";
import { createServices } from "./services";
import { startStoreJobs } from "../jobs/job-tasks";

const SHUTDOWN_GRACE_MS = 10_000;

/** A start that must not go on: one line saying why and what to do (the process exits 1). */
export class StartRefused extends Error {}

export type RunningStore = {
  server: http.Server;
  logger: Logger;
  /** Finishes in-flight requests (10 s at most), then closes the pools and the database. */
  stop(): Promise<void>;
};

/**
 * The whole store in this process: configuration, the database (embedded under DATA_DIR unless
 * DATABASE_URL is set), migrations, demo data on the first start, the services, the guest page
 * cache and the HTTP server. In development, Vite's middlewares serve the pages' modules.
 */
export async function startStore(options: { viteMiddlewares?: RequestHandler } = {}): Promise<RunningStore> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);

  let database: OpenDatabase | null = null;
  try {
    database = await openDatabase(
      config,
      (line) => logger.debug({ postgres: line.trim() }),
      (message) => logger.info(message),
    );
    await checkDatabase(database.db);
  } catch (error) {
    logger.debug({ err: error }, "database connection failed");
    await database?.close();
    if (error instanceof BackupsOfAnEarlierDatabase) throw new StartRefused(error.message);
    throw new ConfigError(
      config.databaseUrl ? "DATABASE_URL" : "DATA_DIR",
      config.databaseUrl
        ? `does not answer (${describeConnectionError(error)})`
        : `could not hold the embedded database (${describeConnectionError(error)})`,
    );
  }
  try {
    return await serve(config, logger, database, options);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

async function serve(
  config: Config,
  logger: Logger,
  database: OpenDatabase,
  options: { viteMiddlewares?: RequestHandler },
): Promise<RunningStore> {
  const { db } = database;
  if (config.databaseUrl && (await connectsAsSuperuser(db))) {
    logger.warn(
      'DATABASE_URL signs in as a superuser, which can run programs on the database server: give the store a role that owns its database and nothing more (docs/operations.md, "The database")',
    );
  }
  if (!config.databaseUrl && backupDirSharesDataDirDisk(config)) {
    logger.warn(
      `BACKUP_DIR (${config.backupDir}) is on the same disk as DATA_DIR (${config.dataDir}): losing that disk loses the backups too; put BACKUP_DIR on another disk or remote storage (docs/operations.md, "Backups")`,
    );
  }
  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");

  if (config.seedDemoData && (await isEmptyStore(db))) {
    const seeded = await seedDemoData(db);
    logger.info(seeded, "demo data seeded (first start)");
  }

  const services = createServices({ db, config, logger });
  if (config.initialAdmin) {
    const outcome = await services.accounts.ensureAdmin(config.initialAdmin);
    if (outcome === "not-an-admin") {
      throw new StartRefused(
        `ADMIN_EMAIL ${config.initialAdmin.email} belongs to an existing customer account, which is never made an admin at start: make it an admin from /admin/users, or set another ADMIN_EMAIL.`,
      );
    }
    logger.info({ email: config.initialAdmin.email, outcome }, "administrator from ADMIN_EMAIL");
  }
  // The demo accounts' passwords are published in the README: they must never face a network,
  // whichever way it comes in (server/settings/config.ts, networkExposure).
  // Every account the demo seed made is checked, whatever its email is now (AccountsService.demoLogins).
  const exposure = networkExposure(config);
  const demoAccounts = await services.accounts.demoLogins();
  const demoLogins = demoAccounts.map((account) => `${account.email} / ${account.password} (${account.role})`);
  const [exposed] = demoAccounts;
  if (exposed && exposure.length > 0) {
    const [first, ...others] = exposure;
    const how = first!.startsWith("HOST=")
      ? `listen on ${first}${others.length > 0 ? ` with ${others.join(" and ")}` : ""}`
      : `start with ${exposure.join(" and ")}`;
    throw new StartRefused(
      `Refusing to ${how}: the demo account ${exposed.email} still has its published password. Change it (My Profile, Change Password) or delete the account, from a start with HOST=127.0.0.1 and neither PUBLIC_URL nor TRUST_PROXY.`,
    );
  }

  // Mail, stock alerts and base backups run on the job queue (docs/decisions/2026-11-25-job-queue.md).
  const mailTransport = createMailTransport(config.mail, { publicUrl: config.publicUrl, replyTo: config.store.email });
  // Backups belong to the embedded cluster; a DATABASE_URL's operator owns its own.
  const backupOptions = database.embedded
    ? {
        connectionString: database.url,
        clusterDir: embeddedClusterDir(config.dataDir),
        dataDir: config.dataDir,
        backupDir: config.backupDir,
        keepDays: config.backupKeepDays,
        logger,
      }
    : null;
  const walSwitch = backupOptions ? startWalSwitchAtStop(backupOptions) : null;
  const jobs = await startStoreJobs({
    connectionString: database.url,
    db,
    services,
    logger,
    mail: { transport: mailTransport, maxAttempts: config.mail.maxAttempts, retrySeconds: config.mail.retrySeconds },
    backups: backupOptions,
  });
  logger.info(
    `job queue: running ${jobs.tasks.join(", ")} in this server${backupOptions ? ", base backups on the crontab" : ""}`,
  );
  /** The jobs in hand finish, then the mail transport closes; waiting jobs stay in the table for the next start. */
  const stopJobs = async () => {
    await jobs.stop();
    mailTransport.close();
  };

  const sessionPool = new pg.Pool({ connectionString: database.url, max: 5, connectionTimeoutMillis: 5_000 });
  sessionPool.on("error", (error) => logger.warn({ err: error }, "session pool connection lost"));
  const pageCache = config.pageCache ? startPageCache(database.url, logger) : null;
  // The filters' counting index is read beside the first requests, which count in SQL until it is
  // in (server/modules/catalog/facet-index.ts); a failed reading leaves the counts to SQL.
  void services.catalog.refreshFacetIndex();

  const app = createApp({
    config,
    logger,
    db,
    sessionPool,
    pageCache: pageCache?.cache,
    services,
    viteMiddlewares: options.viteMiddlewares,
    clientAssetsDir: options.viteMiddlewares ? undefined : path.join(PROJECT_ROOT, "build/client"),
  });

  const server = createHttpServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await stopJobs();
    await pageCache?.close();
    await walSwitch?.stop();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  // What a person starting the store needs, in plain words: where the mail goes, how to sign in,
  // and last (the line scripts wait for) where to open it.
  logger.info(`mail goes to ${mailTransport.description}, from ${config.mail.from}`);
  logger.info(`order confirmation: ${describeTextChannels(config)}`);
  logger.info(`couriers: ${describeCouriers(config.couriers)}`);
  if (demoLogins.length > 0) {
    logger.info(`demo accounts, with their published passwords: ${demoLogins.join(", ")}`);
  }
  logger.info(
    `${config.store.name} is running at ${addressToOpen(config.publicUrl, port)}: open it in a browser (listening on ${config.host}:${port})`,
  );

  let stopping = false;
  // While stopping, every answer says Connection: close and its connection closes after it.
  // Node keeps a kept-alive connection open after server.close(), so clients under load went on
  // sending on theirs until the grace period cut whatever was in flight then (the load test's
  // SIGTERM under load).
  server.prependListener("request", (_req, res) => {
    if (stopping && !res.headersSent) res.setHeader("Connection", "close");
  });

  return {
    server,
    logger,
    async stop() {
      stopping = true;
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
      await pageCache?.close();
      // The jobs in hand are finished (a message sent and marked); the rest wait for the next start.
      await stopJobs();
      await sessionPool.end().catch(() => {});
      // Every committed transaction reaches the archive before PostgreSQL stops.
      await walSwitch?.stop();
      await database.close();
    },
  };
}

function describeConnectionError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code ? `${code}: ${error.message.split("\n")[0]}` : error.message.split("\n")[0]!;
  }
  return String(error);
}

/**
 * The store's address for a person to open: PUBLIC_URL (by default http://localhost:PORT), with
 * the port the system chose when PORT=0 asked it to.
 */
function addressToOpen(publicUrl: string, listeningPort: number): string {
  const url = new URL(publicUrl);
  if (url.port === "0") url.port = String(listeningPort);
  return url.href.replace(/\/$/, "");
}

/** Which channels carry the orders' confirmation texts, for the start-up log. */
export function describeTextChannels(config: Pick<Config, "confirmation">): string {
  const { whatsapp, sms, messagesDir, remindAfterHours, cancelAfterHours } = config.confirmation;
  if (!whatsapp && !sms) {
    return `no WhatsApp or SMS configured: texts are written as files under ${messagesDir}, and the admin confirms orders by phone`;
  }
  const channels = [whatsapp ? `WhatsApp (${whatsapp.apiUrl})` : null, sms ? `SMS (${sms.apiUrl})` : null]
    .filter(Boolean)
    .join(whatsapp && sms ? ", falling back to " : "");
  const cancel = cancelAfterHours === null ? "never cancelled" : `cancelled after ${cancelAfterHours} h`;
  return `texts by ${channels}; a reminder after ${remindAfterHours} h, unanswered orders ${cancel}`;
}
