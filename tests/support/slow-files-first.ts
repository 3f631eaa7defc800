import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest, longest first (each a minute or more of one worker in the
 * runs of 2026-11-29: docs/decisions/2026-11-29-quick-gate.md). A run that knows no durations
 * yet (a fresh clone, as in .ci/run) orders files by size, and a long file that happens to be
 * small started last kept one worker busy for minutes after the other had finished. Started
 * first, they run beside the many short files instead. A file missing from the list, or one
 * listed that is gone, changes nothing but the order.
 */
export const SLOW_FILES = [
  "tests/integration/backups.test.ts",
  "tests/integration/catalog-plans.test.ts",
  "tests/integration/budgets.test.ts",
  "tests/integration/hostile-input-api.test.ts",
  "tests/integration/server-process.test.ts",
  "tests/integration/password-change-limits.test.ts",
  "tests/integration/authorization-matrix-pages.test.ts",
  "tests/integration/house-rules.test.ts",
  "tests/integration/security-redirects-and-form-posts.test.ts",
  "tests/integration/authorization-matrix-api.test.ts",
  "tests/integration/photos.test.ts",
  "tests/integration/transfer-confirmation.test.ts",
  "tests/integration/wal-archive-size.test.ts",
  "tests/integration/email-change.test.ts",
  "tests/integration/page-cache-and-sign-in.test.ts",
  "tests/integration/embedded-database-access.test.ts",
];

/**
 * Vitest's own order (the files that failed last time first, then the longest last time), and
 * when this run knows no file's duration, the slow files above first.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const relativeOf = (file: TestSpecification) => path.relative(root, file.moduleId).split(path.sep).join("/");
    const known = sorted.some((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relativeOf(file)}`));
    if (known) return sorted;
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.indexOf(relativeOf(file));
      return index === -1 ? SLOW_FILES.length : index;
    };
    return sorted
      .map((file, position) => ({ file, position }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position)
      .map(({ file }) => file);
  }
}
