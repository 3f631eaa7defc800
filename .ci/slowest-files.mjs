// The ten slowest test files of a run (.ci/run prints them at the end), from the suites' JSON
// reports: vitest's (test-results/vitest.json: each file's start and end) and Playwright's
// (test-results/playwright.json: each journey's time, added up per file and project).
// `node .ci/slowest-files.mjs <vitest.json> <playwright.json>`; a missing report is left out.
import fs from "node:fs";
import path from "node:path";

const [vitestReport, playwrightReport] = process.argv.slice(2);
const rows = [];
const plural = (count, noun) => `${count} ${noun}${count === 1 ? "" : "s"}`;

if (vitestReport && fs.existsSync(vitestReport)) {
  const report = JSON.parse(fs.readFileSync(vitestReport, "utf8"));
  for (const file of report.testResults ?? []) {
    rows.push({
      ms: file.endTime - file.startTime,
      label: `${path.relative(process.cwd(), file.name)} (vitest, ${plural(file.assertionResults?.length ?? 0, "test")})`,
    });
  }
}

if (playwrightReport && fs.existsSync(playwrightReport)) {
  const report = JSON.parse(fs.readFileSync(playwrightReport, "utf8"));
  const perFile = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const key = `tests/e2e/${spec.file} [${test.projectName}]`;
        const entry = perFile.get(key) ?? { ms: 0, tests: 0 };
        for (const result of test.results) entry.ms += result.duration;
        entry.tests += 1;
        perFile.set(key, entry);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const [file, { ms, tests }] of perFile)
    rows.push({ ms, label: `${file} (Playwright, ${plural(tests, "journey")})` });
}

if (rows.length > 0) {
  rows.sort((a, b) => b.ms - a.ms);
  console.log("== The ten slowest test files (a vitest file from start to end; a journey file's journeys added up)");
  for (const { ms, label } of rows.slice(0, 10)) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${label}`);
}
