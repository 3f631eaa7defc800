import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express, { type Express, type RequestHandler } from "express";
import type pg from "pg";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { requestContext } from "../../app/context";
import { apiRoutes } from "../http/api/api-routes";
import type { Config } from "../settings/config";
import type { Database } from "../db/database";
import { isDatabaseUnavailable } from "../modules/shared/errors.shared";
import { webhooksRouter } from "../http/webhooks";
import { createApiRouter } from "../http/api-router";
import { flashCookies } from "../http/flash-cookie";
import { LITE_COOKIE, isLiteMode } from "../http/lite-mode";
import { type PageCache, pageCacheMiddleware } from "../http/page-cache";
import { pageErrorHandler, servicesForPages, sessionStoreUnavailable } from "../http/page-errors";
import { pageFormPosts } from "../http/page-form-posts";
import { pageSessionOf, pageSessions } from "../http/page-session";
import { photoFiles } from "../http/photo-files";
import { readPhotoFormRequest } from "../http/photo-upload";
import { markPersonalised } from "../http/personalised-answer";
import { queryCounter } from "../http/query-counter";
import { requestLog } from "../http/request-log";
import { responseCompression } from "../http/response-compression";
import { contentSecurityPolicy, securityHeaders } from "../http/security-headers";
import { sameOriginPagePosts } from "../http/same-origin";
import type { Logger } from "../logging/logger";
import type { Services } from "./services";

export type AppDependencies = {
  config: Config;
  logger: Logger;
  db: Database;
  /** A small pool of its own for the session store (connect-pg-simple speaks pg, not knex). */
  sessionPool: pg.Pool;
  /** Rendered guest pages (production); absent, every page is rendered. */
  pageCache?: PageCache;
  services: Services;
  /** Development only: Vite's middlewares (assets, HMR) in front of the pages. */
  viteMiddlewares?: RequestHandler;
  /** Production: the built browser assets (build/client). */
  clientAssetsDir?: string;
};

/** The pages: React Router's build of app/ (this module is bundled with it; Vite reloads it in development). */
export const loadPageBuild = (): Promise<ServerBuild> => import("virtual:react-router/server-build");

export function createApp(deps: AppDependencies): Express {
  const { config, logger, db, services } = deps;
  const app = express();
  app.disable("x-powered-by");
  // The function judged when the configuration was loaded, not the setting again (server/settings/trust-proxy.ts).
  app.set("trust proxy", config.trustProxy?.trusts ?? false);
  // Benchmark only (BENCH_QUERY_COUNT=on): database queries per request.
  if (config.benchQueryCount) app.use(queryCounter({ db, pools: [deps.sessionPool] }));

  app.use(requestLog(logger, { ignore: (path) => path === "/healthz" || path === "/readyz" }));

  // Liveness and readiness, for load balancers and orchestrators.
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      await Promise.race([
        db.raw("select 1"),
        new Promise((_resolve, reject) => setTimeout(() => reject(new Error("timeout")), 2_000).unref()),
      ]);
      res.json({ status: "ready" });
    } catch {
      res.status(503).json({ status: "database unavailable" });
    }
  });

  app.use(responseCompression());
  app.use(securityHeaders({ development: config.env === "development" }));
  if (deps.pageCache) {
    // Guests' catalogue pages and anonymous API catalogue reads, answered before the static
    // files are searched, the API router runs or a session is looked up: no database at all.
    app.use(
      pageCacheMiddleware(deps.pageCache, {
        liteCookie: LITE_COOKIE,
        isLite: isLiteMode,
        policy: contentSecurityPolicy(config.env === "development"),
      }),
    );
  }

  // Product photos' files, from PostgreSQL through a memory cache: before the static files are
  // searched, as their names are content hashes that no file on disk has.
  app.use(photoFiles(services));

  if (deps.viteMiddlewares) {
    app.use(deps.viteMiddlewares);
  } else if (deps.clientAssetsDir) {
    // Hashed file names: safe to cache for a year.
    app.use(
      "/assets",
      express.static(path.join(deps.clientAssetsDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    app.use(topLevelFiles(deps.clientAssetsDir, express.static(deps.clientAssetsDir, { maxAge: "1h", index: false })));
  }

  app.use(
    "/api/v1",
    createApiRouter({
      routes: apiRoutes,
      services,
      corsOrigins: config.corsOrigins,
      siteName: config.store.name,
      publicUrl: config.publicUrl,
    }),
  );

  // The messaging providers' webhooks: signed by the provider, never a page's form (webhooks.ts).
  app.use("/webhooks", webhooksRouter({ config, services, logger }));

  // ---- Pages ----
  app.use(pageFormPosts());
  app.use(sameOriginPagePosts({ publicUrl: config.publicUrl, development: config.env !== "production" }));
  app.use(
    pageSessions({
      pool: deps.sessionPool,
      secret: config.sessionSecret,
      readSession: (sessionId, now) => services.pageSession.readPageSession(sessionId, now),
    }),
  );
  app.use(sessionStoreUnavailable());
  // The pages' services answer database unavailability as a 503 (page-errors.ts).
  const pageServices = servicesForPages(services);
  const flashes = flashCookies(config.sessionSecret);

  // The pages: this module is bundled into the React Router server build (server/index.ts), so
  // the build is imported here; in development Vite loads it afresh after every change.
  const build = withAllowedActionOrigins(loadPageBuild, config);
  const pageHandlerOptions = {
    mode: config.env === "production" ? "production" : "development",
    async getLoadContext(req: express.Request, res: express.Response) {
      const session = pageSessionOf(req, res, flashes);
      // No session could be read, or no user: the root middleware answers 503 (page-errors.ts).
      let databaseUnavailable = res.locals.databaseUnavailable === true;
      let user = null;
      let cartCount: number | null = null;
      try {
        if (session.userId && !databaseUnavailable) {
          // Whatever this request renders is this user's: never kept by the guest page cache.
          markPersonalised(res);
          // Loaded on every request, with the session (page-session.ts): a role change, a
          // deletion or a password change applies at once.
          const signedIn =
            res.locals.signedIn ??
            ({
              user: await services.accounts.findSignedInUser(session.userId, session.credentialsVersion),
              cartCount: null,
            } as const);
          user = signedIn.user;
          // Read before the request's action, if any: after one, the root loader reads it afresh.
          if (req.method === "GET" || req.method === "HEAD") cartCount = signedIn.cartCount;
          // The account is gone or its password changed since this session signed in.
          if (!user) await session.signOut();
        }
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        databaseUnavailable = true;
      }
      const context = new RouterContextProvider();
      context.set(requestContext, {
        services: pageServices,
        databaseUnavailable,
        store: config.store,
        publicUrl: config.publicUrl,
        env: config.env,
        user,
        cartCount: user ? cartCount : null,
        clientIp: req.ip ?? "",
        session,
        cspNonce: res.locals.cspNonce,
        lite: isLiteMode(req.headers.cookie, req.get("save-data")),
        requestId: String(req.id),
        readPhotoForm: readPhotoFormRequest,
      });
      return context;
    },
  };
  // Given a function, React Router derives its routes and handlers from the build on every
  // request (it may have changed); given the build itself, once. Only Vite changes the build
  // while the server runs, so the built server hands React Router the build it loaded.
  app.use(
    deps.viteMiddlewares
      ? createRequestHandler({ build, ...pageHandlerOptions })
      : handlerOfLoadedBuild(async () => createRequestHandler({ build: await build(), ...pageHandlerOptions })),
  );
  app.use(pageErrorHandler(logger));

  return app;
}

/**
 * The public files (public/, copied into the build): only a path under one of the folder's own
 * top-level names reaches the file server, so a page request costs no file-system lookup.
 */
function topLevelFiles(dir: string, serve: RequestHandler): RequestHandler {
  const names = new Set(fs.readdirSync(dir));
  return (req, res, next) => (names.has(req.path.split("/", 2)[1]!) ? serve(req, res, next) : next());
}

/** A request handler made once, from something loaded asynchronously, the first time it is needed. */
function handlerOfLoadedBuild(make: () => Promise<RequestHandler>): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    handler ??= make();
    handler.then((handle) => handle(req, res, next), next);
  };
}

/**
 * React Router refuses an action whose Origin differs from the request's own URL. Behind a proxy
 * or under the public address those differ legitimately, so those hosts are allowed by name.
 */
function withAllowedActionOrigins(build: () => Promise<ServerBuild>, config: Config): () => Promise<ServerBuild> {
  const hosts = [new URL(config.publicUrl).host];
  if (config.env !== "production") hosts.push(`localhost:${config.port}`, `127.0.0.1:${config.port}`);
  return async () => ({ ...(await build()), allowedActionOrigins: hosts });
}
