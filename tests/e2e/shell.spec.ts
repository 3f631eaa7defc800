import { expect, test } from "./fixtures";

test.describe("the store's shell", () => {
  test("home page shows the store, its collections and new arrivals", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Waqt/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Timeless watches, delivered to your door");
    await expect(page.getByRole("link", { name: /Men's Collection/ })).toHaveAttribute("href", "/products?category=Men");
    await expect(page.getByRole("heading", { name: "New arrivals" })).toBeVisible();
    await expect(page.locator(".product-card").first()).toContainText(/Rs\. [\d,]+/);
    const footer = page.locator("footer");
    await expect(footer.getByRole("heading", { name: "Quick Links" })).toBeVisible();
    await expect(footer.getByRole("heading", { name: "Customer Service" })).toBeVisible();
  });

  test("an unknown address shows the 404 page, and Go Home leads home", async ({ page }) => {
    const response = await page.goto("/no-such-watch");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Timeless watches, delivered to your door");
  });

  test("on a small screen the menu folds and opens with a tap", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(mobileNav).toBeVisible();
    await expect(mobileNav.getByRole("link", { name: "FAQ" })).toBeVisible();
  });
});
