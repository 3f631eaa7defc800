/**
 * Every test's name, one a line and sorted: the unit and integration tests as vitest collects
 * them (`vitest list`) and every journey of each Playwright project (`playwright test --list`).
 * Run on two trees and diff the outputs to see that a change to the test machinery lost or renamed
 * no test (docs/decisions/2026-11-29-quick-gate.md):
 *
 *   npx tsx tests/support/test-names.ts > names.txt
 *
 * Lines: `vitest<TAB><file><TAB><describe > name>` and
 * `playwright<TAB><project><TAB><file><TAB><describe > title>`. The canaries are left out (they run
 * only with WAQT_CANARY=1). `vitest list` runs the global setup (an embedded cluster) to collect.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = process.cwd();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-test-names-"));
const env = { ...process.env, WAQT_CANARY: "" };

try {
  const vitestJson = path.join(dir, "vitest.json");
  const vitest = spawnSync("npx", ["vitest", "list", `--json=${vitestJson}`], { env, encoding: "utf8" });
  if (vitest.status !== 0 || !fs.existsSync(vitestJson)) {
    process.stderr.write(vitest.stdout + vitest.stderr);
    throw new Error(`vitest list failed (exit code ${vitest.status})`);
  }
  const vitestTests = JSON.parse(fs.readFileSync(vitestJson, "utf8")) as { name: string; file: string }[];

  const playwright = spawnSync("npx", ["playwright", "test", "--list", "--reporter=json"], {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (playwright.status !== 0) {
    process.stderr.write(playwright.stderr);
    throw new Error(`playwright test --list failed (exit code ${playwright.status})`);
  }
  type Suite = {
    title: string;
    file: string;
    specs?: { title: string; file: string; tests: { projectName: string }[] }[];
    suites?: Suite[];
  };
  const journeys: string[] = [];
  const walk = (suite: Suite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        journeys.push(`playwright\t${test.projectName}\t${spec.file}\t${[...titles, spec.title].join(" > ")}`);
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const file of (JSON.parse(playwright.stdout) as { suites: Suite[] }).suites) walk(file, []);

  const lines = [
    ...vitestTests.map((test) => `vitest\t${path.relative(root, test.file)}\t${test.name}`),
    ...journeys,
  ].sort();
  process.stdout.write(lines.join("\n") + "\n");
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
