import { defineConfig } from "vite";

/**
 * Compiles the process entry (server/main.ts) to build/node/main.js, so production runs plain
 * JavaScript. It holds no store code: it loads build/server/index.js, the one server build.
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
