/**
 * The server build: the input of `react-router build`'s server bundle (vite.config.ts), so that
 * the Express app, the route modules and the domain are one bundle with one copy of React
 * Router, of the request context and of the error classes. The process entry (server/main.ts)
 * starts the store from here; the integration tests build their app servers from the same
 * exports, so they test the very bundle that production runs.
 */
export { startStore, StartRefused, type RunningStore } from "./start-up/start-store";
export { createApp, loadPageBuild } from "./start-up/app";
export { ConfigError, loadConfig, type Config } from "./settings/config";
export { connectDatabase } from "./db/database";
export { createHttpServer } from "./http/http-server";
export { startPageCache, PageCache } from "./http/page-cache";
export { createServices, type Services } from "./start-up/services";
export { PhotoLane } from "./modules/catalog/photo-lane";
export { createMailTransport, type MailTransport } from "./mail/mail-transport";
export { startStoreJobs } from "./jobs/job-tasks";
export type { JobRunner } from "./jobs/job-runner";
