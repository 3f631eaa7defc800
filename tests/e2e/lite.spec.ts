import { expect, test } from "./fixtures";
import { waitForHydration } from "./held-scripts";

/**
 * Lite mode: a shopper on a slow connection turns scripts off for the store and still shops,
 * from the catalogue to a placed order, without a single script being downloaded.
 */
test.describe("lite mode", () => {
  test("a shopper in lite mode browses, fills the cart and checks out without loading any script", async ({
    page,
  }, testInfo) => {
    const scripts: string[] = [];
    await page.goto("/products");
    // The full page asks for its scripts after its first paint: they have come once it has hydrated.
    if (testInfo.project.use.javaScriptEnabled) await waitForHydration(page);
    // Turned on from the footer, then every request is watched.
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.locator("footer").getByRole("link", { name: "Lite mode" }).click();
    await expect(page.locator("footer").getByRole("link", { name: "Full mode" })).toBeVisible();
    await expect(page).toHaveURL(/\/products$/);

    const email = `lite.${testInfo.project.name}.${Date.now()}@example.com`;
    expect(
      (
        await page.request.post("/api/v1/auth/register", {
          data: { name: "Lite Shopper", email, password: "password123" },
        })
      ).status(),
    ).toBe(201);
    await page.getByRole("link", { name: "Login" }).first().click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("button", { name: "Logout" }).first()).toBeAttached();

    await page.getByRole("link", { name: "Products" }).first().click();
    await page.getByLabel("Search").fill("watch");
    await page.getByRole("button", { name: "Search" }).click();
    const card = page
      .locator(".product-card")
      .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
      .first();
    const name = (await card.locator(".product-card__name").textContent())!;
    await card.getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await page.getByRole("button", { name: `Add to Cart ${name}` }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.locator(".cart-line").filter({ hasText: name })).toBeVisible();

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await page.getByLabel("Street Address").fill("12 Canal View");
    await page.getByLabel("City").fill("Faisalabad");
    await page.getByLabel("State / Province").fill("Punjab");
    await page.getByLabel("ZIP / Postal Code").fill("38000");
    await page.getByLabel("Mobile Number").fill("0333 1234567");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();

    expect(scripts, "no script requested in lite mode").toEqual([]);
    expect(await page.locator("script:not([type='application/ld+json'])").count()).toBe(0);

    // And back to the full store.
    await page.locator("footer").getByRole("link", { name: "Full mode" }).click();
    await expect(page.locator("footer").getByRole("link", { name: "Lite mode" })).toBeVisible();
  });
});
