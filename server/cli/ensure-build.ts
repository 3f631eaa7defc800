/**
 * `npm start` runs the built store. This builds it first when there is no build yet or when a
 * source file is newer than the build, so a fresh clone needs only `npm install && npm start`.
 * The test runs call it too (tests/support/global-setup.ts imports `ensureBuild`; `npm run
 * test:e2e` runs this file), so one build serves both suites.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

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
/** Tests beside the code they test are no part of the build: changing one never rebuilds it. */
const TEST_FILE = /\.test\.tsx?$/;

/**
 * The newest modification time of the files under `target`. Files only: a folder's own time
 * changes when any file in it is written by rename (as editors save) or added, a test as well;
 * a source file removed or renamed shows in the files that imported it, which change with it.
 */
function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return TEST_FILE.test(target) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why the build must be made (again), or null when it is current. */
export function staleBuildReason(): string | null {
  const builtAt = Math.min(...OUTPUTS.map((output) => (fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0)));
  if (builtAt === 0) return "No build yet: building the store…";
  if (Math.max(...SOURCES.map(newestMtime)) > builtAt) return "Sources changed since the last build: rebuilding…";
  return null;
}

/** Builds the store when it is missing or stale; the build's exit code (0 when nothing was to do). */
export function ensureBuild(): number {
  const reason = staleBuildReason();
  if (!reason) return 0;
  console.log(reason);
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  return result.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exit(ensureBuild());
}
