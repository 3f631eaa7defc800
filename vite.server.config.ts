import { defineConfig } from "vite";

/**
 * Bundles the Node server (server/main.ts with its modules, migrations and seeds) into
 * build/node/main.js, so production runs plain JavaScript. Packages stay external.
 */
export default defineConfig({
  build: {
    ssr: "server/main.ts",
    outDir: "build/node",
    emptyOutDir: true,
    target: "node20",
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: "main.js", format: "es" } },
  },
  ssr: { target: "node" },
  publicDir: false,
  logLevel: "warn",
});
