/**
 * The process entry: `node build/node/main.js` in production, `npm run dev` in development.
 * Everything else lives in the one server build (server/index.ts, the input of the React Router
 * server build), so the Express app, the pages and the domain share one copy of React Router,
 * of the request context and of the error classes. This file only starts it and stops it.
 */
import type { ViteDevServer } from "vite";
import type * as ServerBuild from "./index";

type StoreModule = typeof ServerBuild;

async function loadStore(): Promise<{ store: StoreModule; vite?: ViteDevServer }> {
  if (process.env.NODE_ENV === "development") {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true, hmr: { host: "127.0.0.1" } } });
    return { store: (await vite.ssrLoadModule("/server/index.ts")) as StoreModule, vite };
  }
  // build/node/main.js → build/server/index.js, loaded as it is (never bundled into this file).
  const serverBuild = new URL("../server/index.js", import.meta.url).href;
  return { store: (await import(/* @vite-ignore */ serverBuild)) as StoreModule };
}

async function main() {
  const { store, vite } = await loadStore();
  let running: Awaited<ReturnType<StoreModule["startStore"]>>;
  try {
    running = await store.startStore({ viteMiddlewares: vite?.middlewares });
  } catch (error) {
    await vite?.close();
    // A bad setting or a refused start: one line, exit 1.
    if (error instanceof store.ConfigError || error instanceof store.StartRefused) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  running.server.on("error", (error) => {
    running.logger.fatal({ err: error }, "server error");
    void running.stop().finally(() => process.exit(1));
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      running.logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    running.logger.info(`${signal}: finishing in-flight requests, then stopping`);
    await running.stop();
    await vite?.close();
    running.logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error("Failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
