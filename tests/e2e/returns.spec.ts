import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, logIn, newCustomer } from "./sign-in";

/**
 * Returns, with JavaScript off and on: a return asked for, approved and received, with the watch
 * back in stock once.
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

async function adminPage(browser: Browser, testInfo: TestInfo, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await logIn(admin, ADMIN.email, ADMIN.password);
  return admin;
}

test.describe("returns", () => {
  test("a customer returns a delivered watch; the admin approves and receives it, and the stock comes back once", async ({
    page,
    browser,
  }, testInfo) => {
    await newCustomer(page, `returner.${testInfo.project.name}`, "Hina Baig");
    const name = await addFromCatalogue(page, 2);
    await page.goto("/checkout");
    await fillAddress(page);
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    const orderId = page.url().split("/").pop()!;
    const short = orderId.slice(-8).toUpperCase();
    await page.goto("/my-orders");
    await expect(page.getByRole("link", { name: `Request a return of order #${short}` })).toHaveCount(0);

    // The store delivers it.
    const admin = await adminPage(browser, testInfo, `/admin/orders/${orderId}`);
    await admin.getByLabel(`Status of order #${short}`).selectOption("Delivered");
    if (testInfo.project.name !== "js") await admin.getByRole("button", { name: "Update" }).click();
    await expect(admin.getByText("Order status updated to Delivered")).toBeVisible();
    const stockOf = async () => {
      await admin.goto(`/admin/products?search=${encodeURIComponent(name)}`);
      return Number(await admin.locator("tbody tr").first().locator("td").nth(4).textContent());
    };
    const stockBefore = await stockOf();

    // The customer asks for the return with the plain form, from the order's own page.
    await page.goto("/my-orders");
    await expect(page.getByRole("link", { name: `Request a return of order #${short}` })).toBeVisible();
    await page.getByRole("link", { name: `View details of order #${short}` }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}$`));
    await page.getByRole("link", { name: `Request a return of order #${short}` }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}/return$`));
    await page.getByRole("button", { name: "Request Return" }).click();
    await expect(page.getByText("Choose at least one watch to return")).toBeVisible();
    await page.getByLabel(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(`)).selectOption("1");
    await page.getByLabel("Changed my mind").check();
    await page.getByLabel("Note (optional)").fill("The colour is not for me.");
    await page.getByRole("button", { name: "Request Return" }).click();
    // Back on the order's page: the message, the return and its state, no second request offered.
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}$`));
    await expect(page.getByText(`Return requested for order #${short}`)).toBeVisible();
    const returns = page.getByRole("region", { name: `Returns of order #${short}` });
    await expect(returns.locator(".status--return-requested")).toHaveText("Requested");
    await expect(page.getByRole("link", { name: `Request a return of order #${short}` })).toHaveCount(0);

    // The admin approves it, then records its arrival with the refund.
    await admin.goto("/admin/returns?status=Requested");
    await admin.getByRole("link", { name: `Open the return of order #${short}` }).click();
    await expect(admin.getByText("The colour is not for me.")).toBeVisible();
    await admin.getByRole("button", { name: "Approve Return" }).click();
    await expect(admin.getByText("Return marked Approved")).toBeVisible();
    await admin.getByLabel("Refund method").selectOption("JazzCash");
    await admin.getByLabel("Reference").fill("JC-7781");
    await admin.getByRole("button", { name: /Mark Received and Refunded/ }).click();
    await expect(admin.getByText("Return marked Received")).toBeVisible();
    await expect(admin.getByRole("button", { name: /Mark Received/ })).toHaveCount(0);
    expect(await stockOf()).toBe(stockBefore + 1);

    await page.goto("/my-orders");
    const card = page.getByRole("article", { name: `Order #${short}` });
    await expect(card.locator(".status--return-received")).toHaveText("Received");
    await expect(card).toContainText("by JazzCash, reference JC-7781");
    await admin.context().close();
  });
});
