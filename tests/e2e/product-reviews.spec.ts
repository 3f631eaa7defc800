import type { Browser, Page, TestInfo } from "@playwright/test";
import { plainImage } from "../support/photos";
import { expect, test } from "./fixtures";
import { ADMIN, adminToken, createProduct, logIn, placeOrder, registerCustomer, type Account } from "./store-api";

/**
 * Reviews from real buyers (docs/product.md, "Reviews"), with JavaScript off and on: the store
 * delivers the order, the buyer reviews the watch with a photo, the admin sees that photo and
 * publishes the review, and the watch's page shows it; a brand's text written on /admin/brands
 * shows on the brand's page.
 */

/** A watch of a brand of its own (so its brand page and figures are this journey's alone). */
async function newWatch(page: Page, tag: string) {
  const brand = `Reviewed ${tag}`;
  const watch = await createProduct(page.request, await adminToken(page.request), {
    name: `Review Watch ${tag}`,
    imageUrl: "/images/placeholder-watch.svg",
    brand,
  });
  return { ...watch, brand, brandSlug: brand.toLowerCase().replace(/[^a-z0-9]+/g, "-") };
}

/** An admin in a browser of their own, JavaScript as the project says, on the page asked for. */
async function adminPage(browser: Browser, testInfo: TestInfo, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await admin.getByLabel("Email").fill(ADMIN.email);
  await admin.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await admin.getByRole("button", { name: "Log In" }).click();
  await expect(admin).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  return admin;
}

/** The buyer's order of the watch, marked Delivered by the admin on the order's page. */
async function deliveredBy(admin: Page, testInfo: TestInfo, orderId: string) {
  const short = orderId.slice(-8).toUpperCase();
  await admin.goto(`/admin/orders/${orderId}`);
  await admin.getByLabel(`Status of order #${short}`).selectOption("Delivered");
  if (testInfo.project.name !== "js") await admin.getByRole("button", { name: "Update" }).click();
  await expect(admin.getByText("Order status updated to Delivered")).toBeVisible();
}

/** The buyer signed in, a watch's order placed and delivered by the admin. */
async function buyerOfNewWatch(page: Page, browser: Browser, testInfo: TestInfo, tag: string) {
  const watch = await newWatch(page, tag);
  const buyer: Account = await registerCustomer(page.request, `reviewer.${tag}`);
  const orderId = await placeOrder(page.request, buyer, watch._id);
  const admin = await adminPage(browser, testInfo, "/admin");
  await deliveredBy(admin, testInfo, orderId);
  await logIn(page, buyer);
  return { watch, admin };
}

test.describe("reviews from buyers", () => {
  test("the admin delivers the order; the buyer reviews with a photo; the admin sees the photo and publishes; the page shows it", async ({
    page,
    browser,
  }, testInfo) => {
    // Two people, a photo processed, a dozen pages: on a busy two-core machine it takes its time.
    test.setTimeout(180_000);
    const tag = `${testInfo.project.name}-${Date.now()}`;
    const { watch, admin } = await buyerOfNewWatch(page, browser, testInfo, tag);
    const title = `Keeps time ${tag}`;

    await page.goto(`/products/${watch._id}`);
    await page.getByRole("link", { name: "Write a review" }).click();
    await expect(page.getByRole("heading", { name: `Review ${watch.name}` })).toBeVisible();
    await page.getByLabel("4 stars").check();
    await page.getByLabel("Title").fill(title);
    await page
      .getByLabel("Your review")
      .fill("Two weeks on the wrist: four seconds fast, and the lume lasts the night.");
    await page
      .getByLabel("Photos (optional)")
      .setInputFiles({ name: "wrist.jpg", mimeType: "image/jpeg", buffer: await plainImage(1200, 900, "jpeg") });
    await page.getByRole("button", { name: "Send Review" }).click();
    // Waiting for the admin: said so, and not on the watch's page yet.
    await expect(page.getByText("Thank you: your review will appear once we have checked it.")).toBeVisible({
      timeout: 30_000,
    });
    await expect(page).toHaveURL(new RegExp(`/products/${watch._id}$`));
    await expect(page.getByText("Thank you for your review of this watch.")).toBeVisible();
    await expect(page.getByRole("heading", { name: title })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Write a review" })).toHaveCount(0);

    // The admin sees it with its photo, and publishes it.
    await admin.goto("/admin/reviews?status=pending");
    const row = admin.getByRole("row").filter({ hasText: title });
    await expect(row).toContainText("4 out of 5: Two weeks on the wrist");
    const thumbnail = row.getByRole("img", { name: "Photo 1 of Zainab M.'s review, full size" });
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    const larger = row.getByRole("link", { name: "Photo 1 of Zainab M.'s review, full size" });
    const largerPath = (await larger.getAttribute("href"))!;
    expect(largerPath).toMatch(/^\/admin\/reviews\/photos\/[A-Za-z0-9_-]{16}-\d+w\.webp$/);
    expect((await admin.request.get(largerPath)).status()).toBe(200);
    // The same photo is no one else's to see while the review waits.
    expect((await page.request.get(largerPath)).status()).toBe(404);
    expect((await page.request.get(largerPath.replace("/admin/reviews", ""))).status()).toBe(404);
    await row.getByRole("button", { name: `Publish the review "${title}"` }).click();
    await expect(admin.getByText(`Published "${title}"`)).toBeVisible();

    // Published: the watch's page shows it, marked a verified purchase, with the rating and count.
    await page.goto(`/products/${watch._id}`);
    const review = page.locator(".review").filter({ hasText: title });
    await expect(review.getByRole("heading", { name: title })).toBeVisible();
    await expect(review).toContainText("Verified purchase");
    await expect(review).toContainText("4 out of 5");
    await expect(page.getByRole("link", { name: "4 out of 5, 1 review" })).toBeVisible();
    await expect(review.getByRole("img", { name: "Photo 1 of Zainab M.'s review" })).toBeVisible();

    // Someone who never bought it gets no form.
    const stranger = await registerCustomer(page.request, `stranger.${tag}`);
    const strangerContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
    const strangerPage = await strangerContext.newPage();
    await logIn(strangerPage, stranger);
    await strangerPage.goto(`/products/${watch._id}`);
    await expect(strangerPage.getByRole("heading", { name: title })).toBeVisible();
    await expect(strangerPage.getByRole("link", { name: "Write a review" })).toHaveCount(0);
    const refused = await strangerPage.goto(`/products/${watch._id}/review`);
    expect(refused?.status()).toBe(403);
    await expect(strangerPage.getByText("Only a customer whose order of this watch was delivered")).toBeVisible();
    await expect(strangerPage.getByRole("button", { name: "Send Review" })).toHaveCount(0);
    await strangerContext.close();

    // The admin writes the brand's text; the brand's page shows it.
    const brandText = `${watch.brand}: hand-finished in small numbers, serviced in Lahore.`;
    await admin.goto("/admin/brands");
    await admin.getByRole("link", { name: `Edit the text of ${watch.brand}` }).click();
    await admin.getByLabel("Short text").fill(brandText);
    await admin.getByRole("button", { name: "Save Text" }).click();
    await expect(admin.getByText(`Saved the text of ${watch.brand}`)).toBeVisible();
    await page.goto(`/brands/${watch.brandSlug}`);
    await expect(page.getByText(brandText)).toBeVisible();
    await expect(page.getByRole("link", { name: watch.name })).toBeVisible();
    await admin.context().close();
  });

  test("a review without a title is refused beside the field, with the rating and text kept", async ({
    page,
    browser,
  }, testInfo) => {
    const tag = `${testInfo.project.name}-${Date.now()}`;
    const { watch, admin } = await buyerOfNewWatch(page, browser, testInfo, tag);
    await admin.context().close();
    const text = "Lovely dial, but the strap is stiff for the first week.";

    await page.goto(`/products/${watch._id}/review`);
    await page.getByLabel("5 stars").check();
    await page.getByLabel("Your review").fill(text);
    await page.getByRole("button", { name: "Send Review" }).click();
    await expect(page.locator("#field-title-error")).toHaveText("Title is required");
    await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Your review")).toHaveValue(text);
    await expect(page.getByLabel("5 stars")).toBeChecked();
    // Nothing written: the watch still has no review, and the form is still offered.
    await page.goto(`/products/${watch._id}`);
    await expect(page.getByRole("link", { name: "Write a review" })).toBeVisible();
    await expect(page.getByText("No reviews yet.")).toBeVisible();
  });
});
