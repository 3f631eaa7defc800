import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, logIn, newCustomer } from "./sign-in";

/**
 * Discount codes, with JavaScript off and on: FIRST10 at checkout (Apply keeps every field; with
 * JavaScript the summary changes in place), taken once and refused on the next order; a bad code
 * keeps the cart; an admin's own code.
 */
/** Adds the index-th watch in stock of the name-sorted catalogue; answers its name. */
async function addFromCatalogue(page: Page, index: number): Promise<string> {
  await page.goto("/products?sort=name&page=2");
  const card = page
    .locator(".product-card")
    .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
    .nth(index);
  const name = (await card.locator(".product-card__name").textContent())!;
  const badge = page.locator(".cart-link");
  const before = (await badge.getAttribute("aria-label")) ?? "";
  // The badge counts the watch as soon as it is pressed: wait for the store's answer too, or the
  // next navigation would cancel the post.
  const added = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/cart"),
  );
  await card.getByRole("button", { name: /^Add to Cart / }).click();
  expect((await added).status()).toBeLessThan(400);
  await expect(badge).not.toHaveAttribute("aria-label", before);
  return name;
}

async function fillAddress(page: Page) {
  await page.getByLabel("Street Address").fill("House 7, Street 3, F-8/2");
  await page.getByLabel("City").fill("Islamabad");
  await page.getByLabel("State / Province").fill("Islamabad Capital Territory");
  await page.getByLabel("ZIP / Postal Code").fill("44000");
  await page.getByLabel("Mobile Number").fill("0300 1234567");
}

/** "Rs. 12,500.50" → 12500.5 */
const rupees = (text: string) => Number(text.replace(/^\s*Rs\.\s*/, "").replace(/,/g, ""));
/** As the store writes money: "Rs. 12,500", with paisa only when there are any. */
const formatRs = (amount: number) =>
  `Rs. ${amount.toLocaleString("en-PK", Math.round(amount * 100) % 100 === 0 ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function adminPage(browser: Browser, testInfo: TestInfo, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await logIn(admin, ADMIN.email, ADMIN.password);
  return admin;
}

test.describe("discount codes", () => {
  test("FIRST10 is applied at checkout and taken once; a bad code and a second use are refused with the cart kept", async ({
    page,
  }, testInfo) => {
    const js = testInfo.project.name === "js";
    await newCustomer(page, `first10.${testInfo.project.name}`, "Hina Baig");
    await addFromCatalogue(page, 0);
    await page.goto("/checkout");
    await fillAddress(page);
    // With JavaScript the page stays the same document while Apply works: this mark survives.
    if (js) await page.evaluate(() => ((window as unknown as { applyMark: boolean }).applyMark = true));

    await page.getByLabel("Discount code").fill("NOPE10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("This discount code is not valid")).toBeVisible();
    await expect(page.locator(".summary-totals")).not.toContainText("Discount (");
    await expect(page.getByLabel("Street Address")).toHaveValue("House 7, Street 3, F-8/2");

    await page.getByLabel("Discount code").fill(" first10 ");
    await page.getByRole("button", { name: "Apply" }).click();
    const summary = page.locator(".summary-totals");
    await expect(summary).toContainText("Discount (FIRST10)");
    await expect(page.getByText("This discount code is not valid")).toBeHidden();
    const subtotal = rupees((await summary.locator("dd").first().textContent())!);
    // 10% of the subtotal, half up to the paisa.
    const discount = Math.round(subtotal * 10) / 100;
    await expect(summary.locator(".discount-amount")).toHaveText(`−${formatRs(discount)}`);
    await expect(summary.locator(".cart__total")).toHaveText(formatRs(Math.round((subtotal - discount) * 100) / 100));
    // Every field is still there (given back without JavaScript, untouched with it).
    await expect(page.getByLabel("City")).toHaveValue("Islamabad");
    await expect(page.getByLabel("Mobile Number")).toHaveValue("0300 1234567");
    await expect(page.getByLabel("Discount code")).toHaveValue(" first10 ");
    if (js) expect(await page.evaluate(() => (window as unknown as { applyMark?: boolean }).applyMark)).toBe(true);

    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page.getByText("Discount (FIRST10)")).toBeVisible();
    await page.getByRole("link", { name: "View My Orders" }).click();
    await expect(page.locator(".order-discount").first()).toContainText("Discount (FIRST10)");

    // The next order: FIRST10 is refused, the cart stays.
    const second = await addFromCatalogue(page, 1);
    await page.goto("/checkout");
    await fillAddress(page);
    await page.getByLabel("Discount code").fill("FIRST10");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByText("This code is only for your first order")).toBeVisible();
    await expect(page.getByLabel("Street Address")).toHaveValue("House 7, Street 3, F-8/2");
    await page.goto("/cart");
    await expect(page.locator(".cart-line")).toHaveCount(1);
    await expect(page.locator(".cart-line")).toContainText(second);
  });

  test("an admin creates a code with the form and deactivates it", async ({ browser }, testInfo) => {
    const admin = await adminPage(browser, testInfo, "/admin/discounts");
    await expect(admin.getByRole("heading", { name: "Discount Codes" })).toBeVisible();
    await expect(admin.locator("tr", { hasText: "FIRST10" })).toContainText("First order only");
    const code = `EID${testInfo.project.name === "js" ? "J" : "N"}${String(Date.now()).slice(-6)}`;
    await admin.getByRole("link", { name: "New Discount Code" }).click();
    await admin.getByLabel("Code").fill(code.toLowerCase());
    await admin.getByLabel("Type").selectOption("fixed");
    await admin.getByLabel("Value").fill("500");
    await admin.getByLabel("Maximum uses (optional)").fill("25");
    await admin.getByRole("button", { name: "Create Code" }).click();
    await expect(admin.getByText(`Discount code ${code} created`)).toBeVisible();
    const row = admin.locator("tr", { hasText: code });
    await expect(row).toContainText("Rs. 500 off");
    await expect(row).toContainText("0 of 25");
    await row.getByRole("button", { name: `Deactivate ${code}` }).click();
    await expect(admin.locator("tr", { hasText: code })).toContainText("Inactive");
    await admin.context().close();
  });
});
