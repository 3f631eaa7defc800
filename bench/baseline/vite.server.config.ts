import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Bundles the baseline server as vite.server.config.ts bundles the store's: plain JavaScript for `node`. */
export default defineConfig({
  root,
  build: {
    ssr: "bench/baseline/server.ts",
    outDir: "bench/baseline/build/node",
    emptyOutDir: true,
    target: "node20",
    rollupOptions: { output: { entryFileNames: "server.js", format: "es" } },
  },
  ssr: { target: "node" },
  publicDir: false,
  logLevel: "warn",
});
