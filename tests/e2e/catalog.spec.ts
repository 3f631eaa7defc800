import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, logIn } from "./sign-in";

/** With JavaScript a select applies at once; without it the shopper presses Search. */
async function choose(page: Page, label: string, option: string, javaScript: boolean) {
  const before = page.url();
  await page.getByLabel(label).selectOption({ label: option });
  if (!javaScript) await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect.poll(() => page.url()).not.toBe(before);
}

const cardNames = (page: Page) => page.locator(".product-card__name").allTextContents();
const cardPrices = async (page: Page) =>
  (await page.locator(".product-card__price").allTextContents()).map((text) =>
    Number(text.replace("Rs.", "").replace(/[^\d.]/g, "")),
  );

test.describe("catalogue", () => {
  test("a shopper browses a collection, sorts, pages through, searches and opens a watch", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/");
    await page.getByRole("link", { name: /Men's Collection/ }).click();
    await expect(page).toHaveURL(/\/products\?category=Men$/);
    await expect(page.getByRole("heading", { name: "Men's Watches" })).toBeVisible();
    await expect(page.locator(".product-card")).toHaveCount(12);

    await choose(page, "Sort by", "Price Low to High", javaScriptEnabled);
    await expect(page).toHaveURL(/sort=price/);
    await expect(page).toHaveURL(/category=Men/);
    const prices = await cardPrices(page);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.locator('.pagination [aria-current="page"]')).toHaveText("2");
    const secondPagePrices = await cardPrices(page);
    expect(secondPagePrices[0]).toBeGreaterThanOrEqual(prices[prices.length - 1]!);
    await page.getByRole("link", { name: "Page 1" }).click();
    await expect(page.locator('.pagination [aria-current="page"]')).toHaveText("1");

    // A new category starts again at page 1.
    await choose(page, "Category", "All Categories", javaScriptEnabled);
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByRole("heading", { name: "All Watches" })).toBeVisible();

    await page.getByLabel("Search watches").fill("chrono");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/search=chrono/);
    const found = await cardNames(page);
    expect(found.length).toBeGreaterThan(0);
    for (const name of found.slice(0, 3)) expect(name.toLowerCase()).toContain("chrono");

    await page.getByLabel("Search watches").fill("no such watch anywhere");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("No products found")).toBeVisible();

    await page.goto("/products?search=chrono");
    const firstName = (await cardNames(page))[0]!;
    await page.locator(".product-card__link").first().click();
    await expect(page.getByRole("heading", { level: 1, name: firstName })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(firstName));
    await page.getByRole("link", { name: /Back to Products/ }).click();
    await expect(page).toHaveURL(/\/products$/);

    await page.goto("/products/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
  });

  test("a guest's Add to Cart goes to log in and back; signed in, it adds", async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    const email = `cart.${testInfo.project.name}.${Date.now()}@example.com`;
    const registered = await page.request.post("/api/v1/auth/register", {
      data: { name: "Ayesha Khan", email, password: "password123" },
    });
    expect(registered.status()).toBe(201);

    await page.goto("/products?category=Women&sort=name");
    const firstInStock = page
      .locator(".product-card")
      .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
      .first();
    const name = await firstInStock.locator(".product-card__name").textContent();
    await firstInStock.getByRole("button", { name: /^Add to Cart / }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fproducts%3Fcategory%3DWomen%26sort%3Dname/);
    await logIn(page, email, "password123");
    await expect(page).toHaveURL(/\/products\?category=Women&sort=name$/);
    // Nothing was added without a second press.
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart");

    await page
      .locator(".product-card")
      .filter({ hasText: name! })
      .getByRole("button", { name: /^Add to Cart / })
      .click();
    await expect(page.getByText(`${name} added to your cart`)).toBeVisible();
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 1 item");

    // From a product page, the chosen quantity, then the cart.
    await page.locator(".product-card").filter({ hasText: name! }).locator(".product-card__link").click();
    if (javaScriptEnabled) {
      await page.getByRole("button", { name: "Increase quantity" }).click();
      await expect(page.getByRole("spinbutton", { name: "Quantity" })).toHaveValue("2");
    } else {
      await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    }
    await page.getByRole("button", { name: /^Add to Cart / }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole("link", { name: name!, exact: true })).toBeVisible();
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 3 items");
  });

  test("an admin adds, edits and deletes a product, seen in the catalogue at once", async ({ page }, testInfo) => {
    const productName = `Test Chronometer ${testInfo.project.name} ${Date.now()}`;
    await page.goto("/login?redirectTo=%2Fadmin%2Fproducts");
    await logIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByRole("heading", { name: "Manage Products" })).toBeVisible();

    await page.getByRole("link", { name: "Add Product" }).click();
    await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
    await page.getByLabel("Price (Rs.)").fill("12.345");
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Price can have at most two decimals")).toBeVisible();
    await expect(page.getByLabel("Price (Rs.)")).toHaveValue("12.345");

    await page.getByLabel("Name").fill(productName);
    await page.getByLabel("Brand (optional)").fill("Longines");
    await page.getByLabel("Description").fill("A chronometer made by the end-to-end test.");
    await page.getByLabel("Price (Rs.)").fill("250000");
    await page.getByLabel("Stock").fill("5");
    await page.getByLabel("Category").selectOption("Men");
    await page.getByLabel("Image URL").fill("/images/placeholder-watch.svg");
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("Product created successfully!")).toBeVisible();

    await page.goto("/products");
    await expect(page.locator(".product-card__name").first()).toHaveText(productName);

    await page.goto("/admin/products");
    await page.getByRole("link", { name: `Edit ${productName}` }).click();
    await expect(page.getByRole("heading", { name: "Edit Product" })).toBeVisible();
    await page.getByLabel("Price (Rs.)").fill("199999");
    await page.getByLabel("Stock").fill("0");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Product updated successfully!")).toBeVisible();
    await page.getByRole("link", { name: productName, exact: true }).click();
    await expect(page.getByText("Rs. 199,999")).toBeVisible();
    await expect(page.getByText("Out of stock").first()).toBeVisible();

    await page.goto("/admin/products");
    await page.getByRole("link", { name: `Delete ${productName}` }).click();
    await expect(page.getByText("Are you sure you want to delete this product?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, delete product" }).click();
    await expect(page.getByText("Product deleted successfully!")).toBeVisible();
    await page.goto(`/products?search=${encodeURIComponent(productName)}`);
    await expect(page.getByText("No products found")).toBeVisible();
  });
});
