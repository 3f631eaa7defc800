import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  server: {
    // The dev server runs inside Express (middleware mode); its HMR socket listens on loopback only.
    hmr: { host: "127.0.0.1" },
  },
});
