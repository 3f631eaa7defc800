import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, logIn, newCustomer } from "./sign-in";

/** Adds a watch from its page (the first in-stock ones of a name-sorted catalogue) and returns its name. */
async function addFromCatalogue(page: Page, index: number) {
  await page.goto("/products?sort=name");
  const card = page
    .locator(".product-card")
    .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
    .nth(index);
  const name = (await card.locator(".product-card__name").textContent())!;
  const badge = page.locator(".cart-link");
  const before = (await badge.textContent()) ?? "";
  await card.getByRole("button", { name: /^Add to Cart / }).click();
  // The badge counts the new unit; the message is checked where it stays (it fades after 3 s
  // with JavaScript, which a loaded machine may take to reach the assertion).
  await expect(badge).not.toHaveText(before);
  if (test.info().project.name === "no-js") {
    await expect(page.getByText(`${name} added to your cart`)).toBeVisible();
  }
  return name;
}

const cartLine = (page: Page, name: string) => page.locator(".cart-line").filter({ hasText: name });

test.describe("cart, checkout and orders", () => {
  test("a customer fills the cart, changes it, checks out and finds the order", async ({ page }, testInfo) => {
    await newCustomer(page, `buyer.${testInfo.project.name}`);
    const first = await addFromCatalogue(page, 0);
    const second = await addFromCatalogue(page, 1);
    const third = await addFromCatalogue(page, 2);

    await page.getByRole("link", { name: /^Cart/ }).first().click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.locator(".cart-line")).toHaveCount(3);
    await cartLine(page, first)
      .getByRole("button", { name: `Increase quantity of ${first}` })
      .click();
    await expect(cartLine(page, first).locator("output")).toHaveText("2");
    await cartLine(page, first)
      .getByRole("button", { name: `Decrease quantity of ${first}` })
      .click();
    await expect(cartLine(page, first).locator("output")).toHaveText("1");
    await expect(cartLine(page, first).getByRole("button", { name: `Decrease quantity of ${first}` })).toBeDisabled();

    await cartLine(page, third)
      .getByRole("link", { name: `Remove ${third}` })
      .click();
    await expect(page.getByText("Are you sure you want to remove this item?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, remove" }).click();
    await expect(page.locator(".cart-line")).toHaveCount(2);
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 2 items");

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByLabel("Country")).toHaveValue("Pakistan");
    await page.getByLabel("Street Address").fill("House 7, Street 3, F-8/2");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByText("City is required")).toBeVisible();
    await expect(page.getByText("Enter a Pakistani mobile number, e.g. 0300-1234567")).toBeVisible();
    await expect(page.getByLabel("Street Address")).toHaveValue("House 7, Street 3, F-8/2");
    await page.getByLabel("Mobile Number").fill("0300 1234567");
    await page.getByLabel("City").fill("Islamabad");
    await page.getByLabel("State / Province").fill("Islamabad Capital Territory");
    await page.getByLabel("ZIP / Postal Code").fill("44000");
    await page.getByRole("button", { name: "Place Order" }).click();

    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page).toHaveURL(/\/order-success\/[0-9a-f-]{36}$/);
    const orderId = page.url().split("/").pop()!;
    await expect(page.getByText(orderId.slice(-8).toUpperCase()).first()).toBeVisible();
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart");
    await page.getByRole("link", { name: "View My Orders" }).click();
    const order = page.getByRole("article", { name: `Order #${orderId.slice(-8).toUpperCase()}` });
    await expect(order).toContainText(first);
    await expect(order).toContainText(second);
    await expect(order.locator(".status--pending")).toHaveText("Pending");
  });

  test("a customer clears the cart after confirming", async ({ page }, testInfo) => {
    await newCustomer(page, `clearer.${testInfo.project.name}`);
    await addFromCatalogue(page, 3);
    await page.goto("/cart");
    await page.getByRole("link", { name: "Clear Cart" }).click();
    await expect(page.getByText("Are you sure you want to clear your cart?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, clear cart" }).click();
    await expect(page.getByText("Your cart is empty")).toBeVisible();
  });

  test("an admin ships and cancels an order and sees the stock come back", async ({ page, browser }, testInfo) => {
    // A customer orders one unit of a watch.
    await newCustomer(page, `ordered.${testInfo.project.name}`);
    const name = await addFromCatalogue(page, 4);
    await page.goto("/checkout");
    await page.getByLabel("Street Address").fill("22 Mall Road");
    await page.getByLabel("City").fill("Lahore");
    await page.getByLabel("State / Province").fill("Punjab");
    await page.getByLabel("ZIP / Postal Code").fill("54000");
    await page.getByLabel("Mobile Number").fill("0321-7654321");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    const orderId = page.url().split("/").pop()!;
    const short = orderId.slice(-8).toUpperCase();

    const adminContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
    const admin = await adminContext.newPage();
    await admin.goto("/login?redirectTo=%2Fadmin");
    await logIn(admin, ADMIN.email, ADMIN.password);
    await expect(admin.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await expect(admin.getByText(short)).toBeVisible();

    // The details: a dialog over the list with JavaScript, a page of their own without.
    await admin.goto("/admin/orders");
    await admin.getByRole("link", { name: `View order #${short}` }).click();
    if (testInfo.project.name === "js") {
      const dialog = admin.getByRole("dialog", { name: `Order #${short}` });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(name);
      await expect(dialog).toContainText("22 Mall Road");
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
    } else {
      await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
      await expect(admin.getByText("22 Mall Road")).toBeVisible();
    }

    const stockOf = async () => {
      await admin.goto(`/admin/products?search=${encodeURIComponent(name)}`);
      return Number(await admin.locator("tbody tr").first().locator("td").nth(4).textContent());
    };
    const stockAfterOrder = await stockOf();

    const setStatus = async (status: string) => {
      await admin.goto(`/admin/orders/${orderId}`);
      await admin.getByLabel(`Status of order #${short}`).selectOption(status);
      if (testInfo.project.name !== "js") await admin.getByRole("button", { name: "Update" }).click();
      if (status === "Shipped") {
        // Shipped asks for the courier and the tracking number, and once more for an unconfirmed order.
        await admin.getByLabel("Courier", { exact: true }).selectOption("TCS");
        await admin.getByLabel("Tracking Number").fill("TCS-0001");
        await admin.getByRole("button", { name: "Mark as Shipped" }).click();
        await admin.getByRole("button", { name: "Yes, ship it" }).click();
      }
      await expect(admin.getByText(`Order status updated to ${status}`)).toBeVisible();
    };
    await setStatus("Shipped");
    await expect(admin.locator(".order-details .status--shipped")).toHaveText("Shipped");
    await setStatus("Cancelled");
    expect(await stockOf()).toBe(stockAfterOrder + 1);

    // The customer sees the new status.
    await page.goto("/my-orders");
    await expect(page.getByRole("article", { name: `Order #${short}` }).locator(".status--cancelled")).toHaveText(
      "Cancelled",
    );
    await adminContext.close();
  });
});
