import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The catalogue's filters (docs/product.md, "Filters"), JavaScript off and on: without it a
 * shopper ticks options and presses Apply; with it an option applies at once and the URL follows.
 * The counts beside the options are read from the page, not known in advance: other journeys add
 * watches to the same store.
 */

/** An option of one filter, found by its group's legend and its label (the count follows the label). */
function option(page: Page, group: string, label: string): Locator {
  return page
    .getByRole("group", { name: group, exact: true })
    .locator("label")
    .filter({ hasText: new RegExp(`^${label}\\s*\\(\\d+\\)$`) });
}

/** How many watches the option says it would give. */
async function countBeside(page: Page, group: string, label: string): Promise<number> {
  const text = await option(page, group, label).locator(".catalog-facets__count").textContent();
  return Number(text!.replace(/[()]/g, ""));
}

/** How many watches the page says it lists, all pages together. */
async function watchesListed(page: Page): Promise<number> {
  const text = await page.locator(".page-header .muted").textContent();
  return Number(text!.replace(/\D/g, ""));
}

/** Waits until the page says it lists this many watches (with JavaScript the URL changes a moment before the page). */
async function expectListed(page: Page, count: number) {
  await expect(page.locator(".page-header .muted")).toHaveText(`${count} ${count === 1 ? "watch" : "watches"}`);
}

/**
 * The view's fields in the URL, those with a value: a GET form sends its empty fields too
 * (search=&category=…), which the page reads as not chosen.
 */
async function expectChosen(page: Page, chosen: string) {
  await expect
    .poll(() => {
      const url = new URL(page.url());
      const params = [...url.searchParams].filter(([, value]) => value !== "");
      return `${url.pathname}?${new URLSearchParams(params).toString()}`;
    })
    .toBe(`/products?${chosen}`);
}

/** Ticks (or unticks) an option; without JavaScript the shopper then presses Apply. */
async function setOption(page: Page, group: string, label: string, ticked: boolean, javaScript: boolean) {
  const before = page.url();
  await option(page, group, label).getByRole("checkbox").setChecked(ticked);
  if (!javaScript) await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect.poll(() => page.url()).not.toBe(before);
}

const cardBrands = (page: Page) => page.locator(".product-card__brand").allTextContents();
const cardPrices = async (page: Page) =>
  (await page.locator(".product-card__price").allTextContents()).map((text) =>
    Number(text.replace("Rs.", "").replace(/[^\d.]/g, "")),
  );

/** Marks the document, so a journey can tell a page changed in place from a new document. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
}
const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

test.describe("catalogue filters", () => {
  test("a shopper narrows the catalogue by brand and movement, with each option's count, and opens a brand's page", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/products");
    const everything = await watchesListed(page);
    const tissot = await countBeside(page, "Brand", "Tissot");
    const citizen = await countBeside(page, "Brand", "Citizen");
    expect(tissot).toBeGreaterThan(0);
    expect(citizen).toBeGreaterThan(0);
    if (javaScriptEnabled) await markDocument(page);

    // One brand: its count is the number of watches listed.
    await setOption(page, "Brand", "Tissot", true, javaScriptEnabled);
    await expectChosen(page, "brand=tissot");
    await expectListed(page, tissot);
    expect(new Set(await cardBrands(page))).toEqual(new Set(["Tissot"]));
    await expect(option(page, "Brand", "Tissot").getByRole("checkbox")).toBeChecked();
    // A brand's own count does not shrink to its own filter: the other brands still show theirs.
    expect(await countBeside(page, "Brand", "Citizen")).toBe(citizen);

    // A second brand widens (OR within a filter; the form sends the brands in the order it lists them); a movement narrows (AND across filters).
    await setOption(page, "Brand", "Citizen", true, javaScriptEnabled);
    await expectChosen(page, "brand=citizen&brand=tissot");
    await expectListed(page, tissot + citizen);
    const automatic = await countBeside(page, "Movement", "Automatic");
    expect(automatic).toBeGreaterThan(0);
    expect(automatic).toBeLessThan(tissot + citizen);
    await setOption(page, "Movement", "Automatic", true, javaScriptEnabled);
    await expectChosen(page, "brand=citizen&brand=tissot&movement=Automatic");
    await expectListed(page, automatic);
    await expect(page.locator(".product-card")).toHaveCount(Math.min(automatic, 12));
    for (const brand of await cardBrands(page)) expect(["Tissot", "Citizen"]).toContain(brand);
    for (const [group, label] of [
      ["Brand", "Tissot"],
      ["Brand", "Citizen"],
      ["Movement", "Automatic"],
    ] as const) {
      await expect(option(page, group, label).getByRole("checkbox")).toBeChecked();
    }
    // With JavaScript every option applied at once, in the same document; the URL followed.
    if (javaScriptEnabled) expect(await stillSameDocument(page)).toBe(true);

    // A price range waits for Apply, with or without JavaScript, and keeps the options ticked.
    const prices = await cardPrices(page);
    const from = Math.min(...prices);
    await page.getByLabel("From", { exact: true }).fill(String(from));
    await page.getByLabel("To", { exact: true }).fill(String(Math.max(...prices)));
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expectChosen(
      page,
      `brand=citizen&brand=tissot&movement=Automatic&minPrice=${from}&maxPrice=${Math.max(...prices)}`,
    );
    await expectListed(page, automatic);
    await expect(page.getByLabel("From", { exact: true })).toHaveValue(String(from));

    // Unticking the brands leaves the movement and the price.
    await setOption(page, "Brand", "Tissot", false, javaScriptEnabled);
    await setOption(page, "Brand", "Citizen", false, javaScriptEnabled);
    await expectChosen(page, `movement=Automatic&minPrice=${from}&maxPrice=${Math.max(...prices)}`);
    await expect.poll(() => watchesListed(page)).toBeGreaterThanOrEqual(automatic);
    expect(await watchesListed(page)).toBeLessThan(everything);

    // A card's brand opens the brand's page: its text and its watches.
    await page.goto("/products?brand=tissot");
    await page.locator(".product-card__brand").first().click();
    await expect(page).toHaveURL(/\/brands\/tissot$/);
    await expect(page.getByRole("heading", { level: 1, name: "Tissot Watches" })).toBeVisible();
    await expect(page.getByText(/^Swiss watchmaker from Le Locle since 1853/)).toBeVisible();
    await expectListed(page, tissot);
    await expect(page.locator(".product-card")).toHaveCount(Math.min(tissot, 12));

    await page.goto("/brands/no-such-brand");
    await expect(page.getByRole("heading", { name: "Brand not found" })).toBeVisible();
  });

  test("the least water resistance is one choice, and a filter that leaves nothing says so", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/products");
    const group = page.getByRole("group", { name: "Water resistance", exact: true });
    const label = group.locator("label").filter({ hasText: /^At least 200 m/ });
    const shown = Number((await label.locator(".catalog-facets__count").textContent())!.replace(/[()]/g, ""));
    await label.getByRole("radio").check();
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expectChosen(page, "waterResistance=200");
    await expectListed(page, shown);
    await expect(label.getByRole("radio")).toBeChecked();

    // A price no watch reaches: nothing found, and a way back to every watch.
    await page.getByLabel("From", { exact: true }).fill("9999999");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("No products found")).toBeVisible();
    await page.getByRole("link", { name: "Show all watches" }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(group.getByRole("radio", { name: "Any" })).toBeChecked();
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("");
  });

  test("with JavaScript, Back returns to the options ticked before, as the page shows them", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without JavaScript Back is the browser's own page");
    await page.goto("/products");
    await setOption(page, "Brand", "Tissot", true, true);
    await setOption(page, "Movement", "Automatic", true, true);
    await expectChosen(page, "brand=tissot&movement=Automatic");
    const automaticTissot = await countBeside(page, "Movement", "Automatic");
    await expectListed(page, automaticTissot);

    await page.goBack();
    await expectChosen(page, "brand=tissot");
    await expect(option(page, "Movement", "Automatic").getByRole("checkbox")).not.toBeChecked();
    await expect(option(page, "Brand", "Tissot").getByRole("checkbox")).toBeChecked();
    await page.goBack();
    await expect(page).toHaveURL(/\/products$/);
    await expect(option(page, "Brand", "Tissot").getByRole("checkbox")).not.toBeChecked();
    await page.goForward();
    await page.goForward();
    await expectChosen(page, "brand=tissot&movement=Automatic");
    await expect(option(page, "Movement", "Automatic").getByRole("checkbox")).toBeChecked();
    await expectListed(page, automaticTissot);

    // A link to every watch clears what was ticked.
    await page.locator("footer").getByRole("link", { name: "Products", exact: true }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(option(page, "Brand", "Tissot").getByRole("checkbox")).not.toBeChecked();
    await expect(option(page, "Movement", "Automatic").getByRole("checkbox")).not.toBeChecked();
  });

  test("on a phone the filters fold into a drawer whose summary says how many are chosen", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/products");
    const summary = page.getByText("Filter and sort", { exact: true });
    await expect(option(page, "Brand", "Casio")).toBeHidden();
    await summary.click();
    await expect(option(page, "Brand", "Casio")).toBeVisible();
    const casio = await countBeside(page, "Brand", "Casio");
    await setOption(page, "Brand", "Casio", true, javaScriptEnabled);
    await expectChosen(page, "brand=casio");
    // A new page (or, with JavaScript, the page changed): the drawer is closed and tells what is chosen.
    await expect(page.getByText("Filter and sort (1 chosen)", { exact: true })).toBeVisible();
    await expect(option(page, "Brand", "Casio")).toBeHidden();
    await expectListed(page, casio);
  });
});
