import { expect, test } from "./fixtures";

/**
 * Fails on purpose. It runs only when WAQT_CANARY=1 (playwright.config.ts), and .ci/run checks
 * that `npm run test:e2e` then exits non-zero and reports it: the runner, the journeys' fixtures
 * and the reporters are the suite's own. What it proves is not about the store, so it starts
 * none: its page is one it writes itself, and the workers' stores (tests/e2e/fixtures.ts, started
 * for the first journey whose pages go to one) stay unstarted.
 */
test.use({ baseURL: "http://127.0.0.1:9" });

test("fails on purpose, so that CI can see a failing journey turn test:e2e red", async ({ page }) => {
  await page.setContent("<main><h1>Waqt</h1></main>");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A heading the store never shows", {
    timeout: 1_000,
  });
});
