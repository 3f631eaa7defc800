import { defineConfig } from "@playwright/test";
import { childEnvironmentOverCallers } from "./tests/support/child-environment";
import { courierFakePorts } from "./tests/support/courier-fake-ports";
import { LEOPARDS_KEY, LEOPARDS_PASSWORD, POSTEX_TOKEN } from "./tests/support/courier-fakes";

/**
 * End-to-end journeys in a real Chromium (Debian's, at /usr/bin/chromium: Playwright's own
 * browser download does not work on these machines). Every journey runs twice: with JavaScript
 * off, as a shopper on a basic phone would, and with it on.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = "test-results/e2e-data";
const COURIER_FAKES = courierFakePorts(PORT);
// The canary fails on purpose; it runs only when .ci/run asks for it (WAQT_CANARY=1).
const CANARY_IGNORED = process.env.WAQT_CANARY === "1" ? [] : ["**/canary.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: CANARY_IGNORED,
  outputDir: "test-results/artifacts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
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
  webServer: [
    {
      // PostEx's and Leopards' merchant APIs, faked (tests/support/courier-fakes/) in a process that
      // stops with the run: the store books and follows parcels through them as through the real ones.
      command: `exec node --import tsx tests/support/courier-fakes-server.ts ${COURIER_FAKES.postex} ${COURIER_FAKES.leopards}`,
      url: `http://127.0.0.1:${COURIER_FAKES.leopards}/__fake/ready`,
      reuseExistingServer: false,
      timeout: 30_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      env: childEnvironmentOverCallers({}),
    },
    {
      // A store of its own: a fresh embedded database with the demo data, the production build. Its
      // backups (BACKUP_DIR's default, beside DATA_DIR) go too: a new database refuses to start over
      // the backups of an earlier one.
      command: `rm -rf ${DATA_DIR} ${DATA_DIR}-backups && exec node build/node/main.js`,
      url: `http://127.0.0.1:${PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
      // Only these settings: one exported in the caller's shell (SMTP_URL, DATABASE_URL…) is set empty.
      env: childEnvironmentOverCallers({
        NODE_ENV: "production",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR,
        PUBLIC_URL: `http://127.0.0.1:${PORT}`,
        RATE_LIMITS: "off",
        LOG_LEVEL: "warn",
        // Both couriers on, against the fakes above; the manual courier stays beside them.
        POSTEX_API_URL: `http://127.0.0.1:${COURIER_FAKES.postex}/services/integration/api/order`,
        POSTEX_TOKEN,
        POSTEX_PICKUP_ADDRESS_CODE: "001",
        LEOPARDS_API_URL: `http://127.0.0.1:${COURIER_FAKES.leopards}/api/`,
        LEOPARDS_API_KEY: LEOPARDS_KEY,
        LEOPARDS_API_PASSWORD: LEOPARDS_PASSWORD,
        LEOPARDS_ORIGIN_CITY: "789",
        // Parcels followed every six seconds: a journey sees the courier's news without waiting long.
        COURIER_SYNC_MINUTES: "0.1",
      }),
    },
  ],
});
