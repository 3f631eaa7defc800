import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  DEAD_IMAGE_CONSOLE_ERROR,
  DEAD_IMAGE_URL,
  PLACEHOLDER_PATH,
  expectPlaceholderShown,
  productWithDeadImage,
} from "./dead-image";
import { waitForHydration } from "./held-scripts";

/**
 * A product whose image cannot be loaded shows the placeholder watch, in its card and on its
 * page, with JavaScript off and on, and never a broken-image box.
 */
async function openWhenReady(page: Page, path: string, javaScriptEnabled: boolean) {
  await page.goto(path);
  if (javaScriptEnabled) await waitForHydration(page);
}

test.describe("a product whose image cannot be loaded", () => {
  test.use({ allowConsoleErrors: [DEAD_IMAGE_CONSOLE_ERROR] });
  const product = productWithDeadImage();

  test("its card in the catalogue shows the placeholder", async ({ page, browser, javaScriptEnabled }) => {
    await openWhenReady(page, `/products?search=${encodeURIComponent(product.name)}`, javaScriptEnabled);
    const card = page.locator(".product-card").filter({ hasText: product.name });
    const image = card.locator("img");
    await expect(image).toHaveAttribute("src", javaScriptEnabled ? PLACEHOLDER_PATH : DEAD_IMAGE_URL);
    await expectPlaceholderShown(browser, page.request, image);
    // The card is no taller than its neighbours would be: image, text and button.
    const cardBox = (await card.boundingBox())!;
    const imageBox = (await image.boundingBox())!;
    expect(cardBox.height).toBeLessThan(imageBox.height + 320);
  });

  test("its page shows the placeholder", async ({ page, browser, javaScriptEnabled }) => {
    await openWhenReady(page, `/products/${product.id}`, javaScriptEnabled);
    await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
    const image = page.locator(".product-detail__image");
    await expect(image).toHaveAttribute("alt", product.name);
    await expect(image).toHaveAttribute("src", javaScriptEnabled ? PLACEHOLDER_PATH : DEAD_IMAGE_URL);
    await expectPlaceholderShown(browser, page.request, image);
  });

  test("reached from its card, its page shows the placeholder", async ({ page, browser, javaScriptEnabled }) => {
    // With JavaScript this page is rendered in the browser, and the image fails after hydration.
    await openWhenReady(page, `/products?search=${encodeURIComponent(product.name)}`, javaScriptEnabled);
    await page.locator(".product-card").filter({ hasText: product.name }).locator(".product-card__link").click();
    await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
    const image = page.locator(".product-detail__image");
    await expect(image).toHaveAttribute("src", javaScriptEnabled ? PLACEHOLDER_PATH : DEAD_IMAGE_URL);
    await expectPlaceholderShown(browser, page.request, image);
  });
});
