import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder with package.json: the server runs from build/server in production, from server/ in
 * development and tests, and finds the project's own files (browser assets, scripts) from there.
 */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

export function projectFile(relative: string): string {
  return path.join(PROJECT_ROOT, relative);
}

function findProjectRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}
