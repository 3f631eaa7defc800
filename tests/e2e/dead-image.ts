import type { APIRequestContext, Browser, Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { likenessTo } from "./pixels";
import { adminToken, createProduct, deleteProduct } from "./store-api";

/**
 * An image that cannot be loaded: an https address (the Content-Security-Policy allows those)
 * on a port Chromium refuses at once, so it fails fast, and the browser says so on the console.
 */
export const DEAD_IMAGE_URL = "https://127.0.0.1:9/dead.jpg";
export const PLACEHOLDER_PATH = "/images/placeholder-watch.svg";
export const DEAD_IMAGE_CONSOLE_ERROR = /Failed to load resource: net::ERR_UNSAFE_PORT/;

/** A watch with a dead image URL, for the tests of one file: made before them, deleted after. */
export function productWithDeadImage() {
  const made = { id: "", name: "", token: "" };
  test.beforeAll(async ({ request }) => {
    made.token = await adminToken(request);
    const product = await createProduct(request, made.token, {
      name: `Lost Photo Diver ${Date.now()}`,
      imageUrl: DEAD_IMAGE_URL,
      stock: 4,
    });
    made.id = product._id;
    made.name = product.name;
  });
  test.afterAll(async ({ request }) => {
    if (made.id) await deleteProduct(request, made.token, made.id);
  });
  return made;
}

/** The box shows the placeholder watch (not a broken image, not an empty box), as a square. */
export async function expectPlaceholderShown(browser: Browser, request: APIRequestContext, image: Locator) {
  await expect(image).toBeVisible();
  const box = (await image.boundingBox())!;
  expect(box.width).toBeGreaterThan(80);
  // A square, like every product image: a broken image may not stretch to its card's height.
  expect(Math.abs(box.height - box.width)).toBeLessThan(2);
  const placeholder = await request.get(PLACEHOLDER_PATH);
  expect(placeholder.status()).toBe(200);
  const likeness = await likenessTo(browser, image, { body: await placeholder.body(), type: "image/svg+xml" });
  // The drawing of a watch, not a plain box...
  expect(likeness.brightnessSpread).toBeGreaterThan(10);
  // ...and that drawing: the placeholder, pixel for pixel but for antialiasing.
  expect(likeness.meanDifference).toBeLessThan(8);
}
