import path from "node:path";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * At the end of a run, each spec file's time in each project (the sum of its journeys' times,
 * hooks and fixtures included, as Playwright measures each), slowest first: where the run's
 * minutes go (docs/decisions/2026-11-29-quick-gate.md).
 */
export default class FileTimesReporter implements Reporter {
  private readonly times = new Map<string, { ms: number; tests: number }>();

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name ?? "";
    const key = `${path.relative(process.cwd(), test.location.file)} [${project}]`;
    const entry = this.times.get(key) ?? { ms: 0, tests: 0 };
    entry.ms += result.duration;
    entry.tests += 1;
    this.times.set(key, entry);
  }

  onEnd() {
    if (this.times.size === 0) return;
    const rows = [...this.times].sort(([, a], [, b]) => b.ms - a.ms);
    const lines = rows.map(
      ([file, { ms, tests }]) =>
        `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file} (${tests} ${tests === 1 ? "journey" : "journeys"})`,
    );
    console.log(
      `\nTime per file (its journeys' times added up; two workers run files side by side):\n${lines.join("\n")}`,
    );
  }

  printsToStdio() {
    return false;
  }
}
