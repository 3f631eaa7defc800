import type { Browser, Page } from "@playwright/test";
import { phonePhoto } from "../support/photos";
import { expect, test } from "./fixtures";
import { ADMIN } from "./sign-in";

/**
 * Real product photos, light on slow phones (docs/product.md, "Products"): an admin uploads a
 * 12-megapixel photo straight from a phone through the product form; shoppers then get it at
 * the size their screen needs.
 */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
/** The product page on a phone may load this much image, every image of the page counted. */
const PHONE_IMAGE_BUDGET = 60 * 1024;

let photo: Buffer;
test.beforeAll(async () => {
  photo = await phonePhoto();
  expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
});

/** Opens a page in a fresh browser of the given kind and counts every image it loads. */
async function imagesLoaded(
  browser: Browser,
  path: string,
  options: { javaScriptEnabled: boolean; extraHTTPHeaders?: Record<string, string> } & Partial<typeof PHONE> & {
      viewport?: { width: number; height: number };
    },
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const loaded: { url: string; bytes: number }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "image" || response.url().startsWith("data:")) return;
    loaded.push({ url: response.url(), bytes: (await response.body()).length });
  });
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const photos = loaded.filter((image) => image.url.includes("/photos/"));
  await context.close();
  return { total: loaded.reduce((sum, image) => sum + image.bytes, 0), photos, loaded };
}

async function logIn(page: Page) {
  await page.goto("/login?redirectTo=%2Fadmin%2Fproducts%2Fnew");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
}

test.describe("product photos", () => {
  test("an admin uploads a phone's 12-megapixel photo; a phone then loads under 60 kB of image, a desktop the variant its screen needs", async ({
    page,
    browser,
    javaScriptEnabled,
  }, testInfo) => {
    test.setTimeout(120_000);
    const name = `Photo Watch ${testInfo.project.name} ${Date.now()}`;
    await logIn(page);
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Photographed with a phone, uploaded as it was.");
    await page.getByLabel("Price (Rs.)").fill("42000");
    await page.getByLabel("Stock").fill("3");
    await page.getByLabel("Category").selectOption("Women");
    await page.getByLabel("Photo").setInputFiles({ name: "IMG_2041.JPG", mimeType: "image/jpeg", buffer: photo });
    if (javaScriptEnabled) {
      // With JavaScript: a preview of the chosen photo, then the upload's progress.
      await expect(page.getByRole("img", { name: "Preview of IMG_2041.JPG" })).toBeVisible();
    }
    await page.getByRole("button", { name: "Add Product" }).click();
    if (javaScriptEnabled) {
      await expect(page.getByRole("status").filter({ hasText: /Uploading photo|Processing photo/ })).toBeVisible();
    }
    await expect(page.getByText("Product created successfully!")).toBeVisible({ timeout: 30_000 });

    await page.goto(`/admin/products?search=${encodeURIComponent(name)}`);
    const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
    const productPath = href!;
    expect(productPath).toMatch(/^\/products\/[0-9a-f-]{36}$/);

    // The product page on a 390-pixel-wide phone (3 device pixels per CSS pixel).
    const phone = await imagesLoaded(browser, productPath, { ...PHONE, javaScriptEnabled });
    console.info(
      `${testInfo.project.name}, phone: ${(phone.total / 1024).toFixed(1)} kB of image: ` +
        phone.loaded.map((image) => `${image.url.split("/").pop()} ${(image.bytes / 1024).toFixed(1)} kB`).join(", "),
    );
    expect(phone.photos).toHaveLength(1);
    // The slot is 358 CSS pixels; at most twice that is fetched on so dense a screen: 720.
    expect(phone.photos[0]!.url).toMatch(/-720w\.(avif|webp)$/);
    expect(phone.total).toBeLessThan(PHONE_IMAGE_BUDGET);

    // A desktop: the 568-pixel slot, at 1 and at 2 device pixels per CSS pixel.
    const desktop = await imagesLoaded(browser, productPath, {
      viewport: { width: 1366, height: 768 },
      deviceScaleFactor: 1,
      javaScriptEnabled,
    });
    expect(desktop.photos.map((image) => image.url)).toEqual([expect.stringMatching(/-720w\.(avif|webp)$/)]);
    const retina = await imagesLoaded(browser, productPath, {
      viewport: { width: 1440, height: 900 },
      deviceScaleFactor: 2,
      javaScriptEnabled,
    });
    expect(retina.photos.map((image) => image.url)).toEqual([expect.stringMatching(/-1440w\.(avif|webp)$/)]);

    // Save-Data: the narrowest variant that fills the slot at one pixel per CSS pixel.
    const saving = await imagesLoaded(browser, productPath, {
      ...PHONE,
      javaScriptEnabled,
      extraHTTPHeaders: { "save-data": "on" },
    });
    expect(saving.photos.map((image) => image.url)).toEqual([expect.stringMatching(/-480w\.(avif|webp)$/)]);
    expect(saving.total).toBeLessThan(phone.total);

    // The catalogue on the phone: the card shows the photo at the card's size, two cards a row
    // (about 155 CSS pixels wide, at most two device pixels each: the 320-pixel variant).
    const list = await imagesLoaded(browser, `/products?search=${encodeURIComponent(name)}`, {
      ...PHONE,
      javaScriptEnabled,
    });
    expect(list.photos.map((image) => image.url)).toEqual([expect.stringMatching(/-320w\.(avif|webp)$/)]);

    // Shown to a shopper: the photo, upright, with the product's name as its text.
    await page.goto(productPath);
    const main = page.getByRole("img", { name, exact: true });
    await expect(main).toBeVisible();
    const box = (await main.boundingBox())!;
    expect(Math.round(box.width)).toBe(Math.round(box.height));

    // The admin removes it: back to the placeholder, as the product has no Image URL.
    await page.goto(`/admin/products?search=${encodeURIComponent(name)}`);
    await page.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("img", { name: `Current photo of ${name}` })).toBeVisible();
    await page.getByLabel("Remove this photo").check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Product updated successfully!")).toBeVisible();
    await page.goto(productPath);
    await expect(page.getByRole("img", { name, exact: true })).toHaveAttribute("src", "/images/placeholder-watch.svg");
  });

  test("a file that is not a photo is refused beside the field, and what was typed stays", async ({ page }) => {
    await logIn(page);
    await page.getByLabel("Name").fill("Not A Photo Watch");
    await page.getByLabel("Description").fill("Kept after the refusal");
    await page.getByLabel("Price (Rs.)").fill("1000");
    await page.getByLabel("Stock").fill("1");
    await page.getByLabel("Category").selectOption("Men");
    await page.getByLabel("Photo").setInputFiles({
      name: "photo.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from("This is a text file with a photo's name."),
    });
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("The photo must be a JPEG, PNG, WebP or AVIF image")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Not A Photo Watch");
    await expect(page.getByLabel("Description")).toHaveValue("Kept after the refusal");
  });

  test("a photo chosen before the page's script has arrived is kept, previewed once it runs, and uploaded", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "about the moment the script arrives");
    // The scripts are held back until the admin has filled the form and chosen the photo.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/**/*.js", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/login?redirectTo=%2Fadmin%2Fproducts%2Fnew", { waitUntil: "commit" });
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
    const name = `Early Photo Watch ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Chosen before the script arrived.");
    await page.getByLabel("Price (Rs.)").fill("9000");
    await page.getByLabel("Stock").fill("2");
    await page.getByLabel("Category").selectOption("Men");
    await page.getByLabel("Photo").setInputFiles({ name: "early.jpg", mimeType: "image/jpeg", buffer: photo });
    await expect(page.getByRole("img", { name: "Preview of early.jpg" })).toHaveCount(0);

    release();
    // Hydrated: the file the browser kept is previewed, and everything typed is still there.
    await expect(page.getByRole("img", { name: "Preview of early.jpg" })).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(name);
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("Product created successfully!")).toBeVisible({ timeout: 30_000 });
    await page.goto(`/products?search=${encodeURIComponent(name)}`);
    await expect(page.locator(".product-card img[srcset]")).toHaveCount(1);
  });
});
