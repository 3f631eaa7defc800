/**
 * The bench's baselines, in a process started like the store's (`node …`, NODE_ENV=production):
 * - GET /json: a bare Express handler answering a small JSON body;
 * - GET /: a bare React Router page with no data (./app), through @react-router/express.
 * In front of both, the outer layer the store's server has too: compression and the same
 * security headers (helmet, CSP with a nonce). Nothing else: no logging, sessions or database.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import { securityHeaders } from "../../server/http/security-headers";

// Bundled to bench/baseline/build/node/server.js; the page build sits beside it.
const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(securityHeaders({ development: false }));
app.get("/json", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ success: true, message: "OK", data: { status: "ok", items: [1, 2, 3] } });
});
app.use(
  "/assets",
  express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
);
app.use(createRequestHandler({ build, mode: "production" }));

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  console.log(`baseline listening on ${typeof address === "object" && address ? address.port : "?"}`);
});
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
