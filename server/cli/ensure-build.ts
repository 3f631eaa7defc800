/**
 * `npm start` runs the built store. This builds it first when there is no build yet or when a
 * source file is newer than the build, so a fresh clone needs only `npm install && npm start`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const OUTPUTS = ["build/node/main.js", "build/server/index.js", "build/client"];
const SOURCES = [
  "app",
  "server",
  "migrations",
  "seeds",
  "public",
  "package-lock.json",
  "vite.config.ts",
  "vite.server.config.ts",
  "react-router.config.ts",
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = Math.min(...OUTPUTS.map((output) => (fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0)));
const changedAt = Math.max(...SOURCES.map(newestMtime));

if (builtAt === 0 || changedAt > builtAt) {
  console.log(
    builtAt === 0 ? "No build yet: building the store…" : "Sources changed since the last build: rebuilding…",
  );
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
