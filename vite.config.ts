import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  environments: {
    // One server build: the Express app, the domain and the pages in one bundle
    // (build/server/index.js), as in React Router's node-custom-server template.
    ssr: { build: { rollupOptions: { input: "server/index.ts" }, sourcemap: true } },
  },
  server: {
    // The dev server runs inside Express (middleware mode); its HMR socket listens on loopback only.
    hmr: { host: "127.0.0.1" },
  },
});
