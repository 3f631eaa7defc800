import { expect, test } from "./fixtures";

/**
 * Fails on purpose. It runs only when WAQT_CANARY=1 (playwright.config.ts), and .ci/run checks
 * that `npm run test:e2e` then exits non-zero and reports it.
 */
test("fails on purpose, so that CI can see a failing journey turn test:e2e red", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A heading the store never shows", {
    timeout: 1_000,
  });
});
