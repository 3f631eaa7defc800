import { defineConfig } from "vitest/config";
import { SlowFilesFirst } from "./tests/support/slow-files-first";

/**
 * Unit and integration tests on a real PostgreSQL: the global setup starts an embedded cluster
 * (or uses TEST_DATABASE_URL) and prepares a migrated template; each test file gets its own
 * database cloned from it. The React Router plugin is left out on purpose: pages are tested
 * through the real production build, which the global setup makes when it is missing or stale.
 */
const suites = [
  "server/**/*.test.ts",
  "app/**/*.test.{ts,tsx}",
  "seeds/**/*.test.ts",
  "tests/integration/**/*.test.ts",
];

/**
 * WAQT_NO_DATABASE=1: a run of tests that need neither a database nor the build (.ci/run's canary,
 * tests/canary) leaves the global setup out; a test that asks for a database then fails at once.
 */
const withoutDatabase = process.env.WAQT_NO_DATABASE === "1";

export default defineConfig({
  test: {
    // WAQT_CANARY=1 adds a test that fails on purpose (tests/canary): .ci/run checks that it turns the run red.
    include: process.env.WAQT_CANARY === "1" ? [...suites, "tests/canary/**/*.test.ts"] : suites,
    globalSetup: withoutDatabase ? [] : ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/fast-check-seed.ts", "tests/support/no-deprecated-queries.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: two workers keep the machine responsive for PostgreSQL.
    maxWorkers: 2,
    // On a fresh clone, the files known to be slow start first (tests/support/slow-files-first.ts).
    sequence: { sequencer: SlowFilesFirst },
    // Each file with its time as it ends, and every result as JSON (.ci/run lists the slowest files).
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    // The built pages load natively, like in production, so they share React Router with the
    // Express adapter (one copy of its classes).
    server: { deps: { external: [/\/build\//] } },
  },
});
