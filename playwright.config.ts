import { defineConfig } from "@playwright/test";

/**
 * End-to-end journeys in a real Chromium (Debian's, at /usr/bin/chromium: Playwright's own
 * browser download does not work on these machines). Every journey runs twice: with JavaScript
 * off, as a shopper on a basic phone would, and with it on.
 *
 * Two workers, each with a store of its own (tests/e2e/worker-store.ts, started by the `store`
 * fixture of tests/e2e/fixtures.ts): the production build on a fresh embedded database with the
 * demo data, on port E2E_PORT (3210 unless set) + the worker's index, with the couriers' fakes on
 * that port + 10000 and + 20000. A file's journeys run in order, in one worker (fullyParallel off).
 */
// The canary fails on purpose; it runs only when .ci/run asks for it (WAQT_CANARY=1).
const CANARY_IGNORED = process.env.WAQT_CANARY === "1" ? [] : ["**/canary.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: CANARY_IGNORED,
  outputDir: "test-results/artifacts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Each journey as it ends, each file's time at the end, and every result as JSON (.ci/run lists the slowest files).
  reporter: [
    ["list"],
    ["./tests/e2e/file-times-reporter.ts"],
    ["json", { outputFile: "test-results/playwright.json" }],
  ],
  use: {
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      // What happens before the scripts run and the axe audit (which runs in the page) need
      // JavaScript in the browser; every page they visit is also covered by the journeys here.
      testIgnore: [...CANARY_IGNORED, "**/before-hydration.spec.ts", "**/accessibility.spec.ts"],
    },
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: CANARY_IGNORED },
  ],
});
