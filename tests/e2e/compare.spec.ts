import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { holdScripts, waitForHydration } from "./held-scripts";

/**
 * Compare (docs/product.md, "Compare"): a guest picks watches from the catalogue and a product
 * page, sees them side by side with the differences marked, removes one and clears the rest;
 * without JavaScript and with it. Each journey starts with the browser's own cookies, empty.
 */

const compareLink = (page: Page) => page.locator(".site-header .compare-link");
const comparedNames = (page: Page) => page.locator(".compare__product span").allTextContents();

/** Presses Compare on the catalogue's card at `index`, and waits until the page says it was added as the `nth`. */
async function compareCard(page: Page, index: number, nth: number): Promise<string> {
  const card = page.locator(".product-card").nth(index);
  const name = (await card.locator(".product-card__name").textContent())!;
  await card.getByRole("button", { name: `Compare ${name}` }).click();
  await expect(page.getByText(`${name} added to your comparison (${nth} of 4).`)).toBeVisible();
  return name;
}

/** Each row is marked "Differs" exactly when its watches do not all say the same. */
async function expectDifferencesMarked(page: Page) {
  const rows = await page.locator(".compare__table tbody tr").evaluateAll((trs) =>
    // Every row but the last, which holds the Add to Cart buttons.
    trs
      .filter((tr) => tr.querySelector("form") === null)
      .map((tr) => ({
        marked: tr.querySelector(".compare__differs") !== null,
        cells: [...tr.querySelectorAll("td")].map((td) => td.textContent),
      })),
  );
  expect(rows.length).toBeGreaterThan(3);
  expect(rows.some((row) => row.marked)).toBe(true);
  for (const row of rows) expect(row.marked).toBe(new Set(row.cells).size > 1);
}

test.describe("compare", () => {
  test("a guest compares three watches side by side, removes one and clears the rest", async ({ page }) => {
    await page.goto("/products?sort=name");
    await expect(compareLink(page)).toHaveCount(0);
    const first = await compareCard(page, 0, 1);
    // Back on the same page, with the message and the top bar's link.
    await expect(page).toHaveURL(/\/products\?sort=name$/);
    await expect(compareLink(page)).toHaveText("Compare 1");
    // Another make, further down the list.
    const second = await compareCard(page, 7, 2);

    // A third from its product page.
    await page.locator(".product-card__link").nth(11).click();
    await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
    const third = (await page.getByRole("heading", { level: 1 }).textContent())!;
    await page.getByRole("button", { name: `Compare ${third}` }).click();
    await expect(page.getByText(`${third} added to your comparison (3 of 4).`)).toBeVisible();

    await compareLink(page).click();
    await expect(page).toHaveURL(/\/compare$/);
    await expect(page.getByRole("heading", { level: 1, name: "Compare watches" })).toBeVisible();
    expect(await comparedNames(page)).toEqual([first, second, third]);
    // Each difference is marked in words, not by colour alone.
    await expectDifferencesMarked(page);
    await expect(page.getByRole("rowheader", { name: /^Movement/ })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Add to Cart / })).toHaveCount(3);

    await page.getByRole("button", { name: `Remove ${second}` }).click();
    await expect(page.getByText("Removed from your comparison.")).toBeVisible();
    expect(await comparedNames(page)).toEqual([first, third]);
    await expect(compareLink(page)).toHaveText("Compare 2");

    await page.getByRole("button", { name: "Clear the comparison" }).click();
    await expect(page.getByText("No watches to compare yet.")).toBeVisible();
    await expect(compareLink(page)).toHaveCount(0);
  });

  test("a fifth watch is refused with the reason, on the page where one can be removed", async ({ page }) => {
    await page.goto("/products?sort=name");
    for (let index = 0; index < 4; index++) await compareCard(page, index, index + 1);
    const card = page.locator(".product-card").nth(4);
    await card.getByRole("button", { name: /^Compare / }).click();
    await expect(page).toHaveURL(/\/compare$/);
    await expect(
      page.getByText("You can compare up to 4 watches. Remove one on the compare page first."),
    ).toBeVisible();
    expect(await comparedNames(page)).toHaveLength(4);
  });

  test("on a phone the table scrolls sideways while the row names stay at the left", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/products?sort=name");
    for (let index = 0; index < 3; index++) await compareCard(page, index, index + 1);
    await page.goto("/compare");
    const scroller = page.locator(".compare__scroll");
    const rowName = page.getByRole("rowheader", { name: /^Price/ });
    const before = (await rowName.boundingBox())!;
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await scroller.evaluate((element) => element.scrollBy(300, 0));
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    const after = (await rowName.boundingBox())!;
    expect(after.x).toBe(before.x);
  });

  test("before the scripts run, Compare pressed early adds the watch and the page says so after", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "what happens before the scripts run needs scripts to hold back");
    const scripts = await holdScripts(page);
    await page.goto("/products?sort=name", { waitUntil: "domcontentloaded" });
    await compareCard(page, 0, 1);
    await scripts.release();
    await waitForHydration(page);
    await expect(compareLink(page)).toHaveText("Compare 1");
    // After the scripts, the next press is a client-side submission, counted on top of the first.
    await compareCard(page, 1, 2);
    await expect(compareLink(page)).toHaveText("Compare 2");
  });

  test("axe finds no serious violation on the compare page, on a desktop and on a phone", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "axe runs in the page (playwright.config.ts)");
    await page.goto("/products?sort=name");
    for (let index = 0; index < 3; index++) await compareCard(page, index, index + 1);
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.goto("/compare");
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map(
          (violation) => `${size.width}px ${violation.id}: ${violation.nodes.map((node) => node.target).join(" | ")}`,
        );
      expect(serious).toEqual([]);
    }
  });
});
