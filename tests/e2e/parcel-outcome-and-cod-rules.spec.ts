import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, logIn, newCustomer } from "./sign-in";
import { adminToken, placeOrder, productsInStock, registerCustomer, setOrderStatus } from "./store-api";

/**
 * Fewer parcels back, with JavaScript off and on (docs/product.md, "Returned to sender",
 * "Cash-on-delivery rules"): the admin marks a shipped parcel returned to sender and received
 * back; the admin sets a rule; a shopper's cash-on-delivery checkout is refused with the reason,
 * every field kept.
 */
async function adminPage(browser: Browser, testInfo: TestInfo, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await logIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(new RegExp(`${path.replace(/[/?]/g, "\\$&")}$`));
  return admin;
}

test.describe("fewer parcels back", () => {
  test("the admin marks a shipped parcel returned to sender, then received back, and its watch is back in stock", async ({
    browser,
    request,
  }, testInfo) => {
    const token = await adminToken(request);
    const customer = await registerCustomer(request, `returned.${testInfo.project.name}`);
    const [product] = await productsInStock(request, 3);
    const orderId = await placeOrder(request, customer, product!._id);
    await setOrderStatus(request, token, orderId, "Shipped");
    const stockOf = async () =>
      ((await (await request.get(`/api/v1/products/${product!._id}`)).json()).data as { stock: number }).stock;
    const shippedStock = await stockOf();

    const admin = await adminPage(browser, testInfo, `/admin/orders/${orderId}`);
    await admin.getByRole("link", { name: "Returned to sender…" }).click();
    await expect(admin.getByRole("heading", { name: /returned to sender/ })).toBeVisible();
    await admin.getByRole("button", { name: "Mark returned to sender" }).click();
    // No reason chosen: said beside the choices, nothing changed.
    await expect(admin.getByText("Choose why the parcel came back")).toBeVisible();
    await admin.getByLabel("Wrong address").check();
    await admin.getByRole("button", { name: "Mark returned to sender" }).click();
    await expect(admin.getByText("The order is marked returned to sender and cancelled.")).toBeVisible();
    await expect(admin.getByText(/Returned to sender \(Wrong address\)/)).toBeVisible();
    expect(await stockOf()).toBe(shippedStock);

    await admin.getByRole("link", { name: "Mark received back" }).click();
    await admin.getByRole("button", { name: "Yes, received back" }).click();
    await expect(admin.getByText("The parcel is received back: its watches are back in stock.")).toBeVisible();
    await expect(admin.getByText(/Received back/).first()).toBeVisible();
    expect(await stockOf()).toBe(shippedStock + 1);
    await admin.context().close();
  });

  test("the admin sets a limit, and a shopper's order over it is refused with the reason, every field kept", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const admin = await adminPage(browser, testInfo, "/admin/settings/orders");
    try {
      await admin.getByLabel("Most anyone may order on cash on delivery (Rs.)").fill("1000");
      await admin.getByRole("button", { name: "Save rules" }).click();
      await expect(admin.getByText("Order rules saved")).toBeVisible();
      await expect(admin.getByLabel("Most anyone may order on cash on delivery (Rs.)")).toHaveValue("1000");

      await newCustomer(page, `refused.${testInfo.project.name}`, "Usman Tariq");
      await page.goto("/products?sort=name");
      const added = page.waitForResponse(
        (response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/cart"),
      );
      await page
        .locator(".product-card")
        .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
        .first()
        .getByRole("button", { name: /^Add to Cart / })
        .click();
      expect((await added).status()).toBeLessThan(400);
      await page.goto("/checkout");
      await page.getByLabel("Street Address").fill("House 12, Street 9, G-10/4");
      await page.getByLabel("City").fill("Islamabad");
      await page.getByLabel("State / Province").fill("Islamabad Capital Territory");
      await page.getByLabel("ZIP / Postal Code").fill("44000");
      await page.getByLabel("Mobile Number").fill("0321 5550001");
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(
        page.getByRole("alert").filter({ hasText: "A cash-on-delivery order can be at most Rs. 1,000" }),
      ).toBeVisible();
      // The way on: the same order, paid in advance (the store offers bank transfer).
      await expect(page.getByRole("button", { name: "Pay in advance by bank transfer" })).toBeVisible();
      await expect(page.getByLabel("Street Address")).toHaveValue("House 12, Street 9, G-10/4");
      await expect(page.getByLabel("Mobile Number")).toHaveValue("0321 5550001");
      await page.goto("/cart");
      await expect(page.locator(".cart-line").first()).toBeVisible();

      await admin.goto("/admin/settings/orders");
      await expect(admin.getByText("Cash-on-delivery limit (COD_LIMIT)").first()).toBeVisible();
    } finally {
      const token = await adminToken(request);
      const off = await request.put("/api/v1/settings/orders", {
        headers: { authorization: `Bearer ${token}` },
        data: { blockAfterReturns: null, firstTimeCodLimit: null, codLimit: null, openCodOrders: null },
      });
      expect(off.status()).toBe(200);
      await admin.context().close();
    }
  });
});
