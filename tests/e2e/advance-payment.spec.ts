import type { Browser, Page, TestInfo } from "@playwright/test";
import sharp from "sharp";
import { audit } from "./axe-audit";
import { expect, test } from "./fixtures";
import { ADMIN, logIn, newCustomer } from "./sign-in";
import { adminToken } from "./store-api";

/**
 * Paying in advance, with JavaScript off and on (docs/product.md, "Paying in advance"): a
 * cash-on-delivery checkout the merchant's first-time limit refuses becomes a bank-transfer order
 * with "Pay in advance by bank transfer"; the customer sends the transaction reference with a
 * screenshot of the transfer on the order's page; the admin sees the screenshot beside the
 * reference, verifies the payment and ships the order. With JavaScript on, the axe audit
 * (tests/e2e/axe-audit.ts) on the checkout with the transfer chosen and on the order's page with
 * the account.
 */
async function adminPage(browser: Browser, testInfo: TestInfo, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await logIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(new RegExp(`${path.replace(/[/?]/g, "\\$&")}$`));
  return admin;
}

test("a refused cash-on-delivery checkout becomes a bank-transfer order: reference sent, payment verified, shipped", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const js = testInfo.project.name === "js";
  const token = await adminToken(request);
  const settingsUrl = "/api/v1/settings/orders";
  const rulesBefore = (await (await request.get(settingsUrl, { headers: { authorization: `Bearer ${token}` } })).json())
    .data as { firstTimeCodLimit: number | null };
  const admin = await adminPage(browser, testInfo, "/admin/settings/orders");
  try {
    await admin.getByLabel("Most a first-time phone may order on cash on delivery (Rs.)").fill("1000");
    await admin.getByRole("button", { name: "Save rules" }).click();
    await expect(admin.getByText("Order rules saved")).toBeVisible();

    await newCustomer(page, `advance.${testInfo.project.name}`, "Hira Qureshi");
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
    await page.getByLabel("Street Address").fill("Flat 4, Block C, Gulshan-e-Iqbal");
    await page.getByLabel("City").fill("Karachi");
    await page.getByLabel("State / Province").fill("Sindh");
    await page.getByLabel("ZIP / Postal Code").fill("75300");
    // A number of its own per run: "first-time" is the phone's record.
    const phone = `0333 ${String(Date.now()).slice(-7)}`;
    await page.getByLabel("Mobile Number").fill(phone);
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "A first cash-on-delivery order can be at most Rs. 1,000" }),
    ).toBeVisible();
    await expect(page.getByLabel("Mobile Number")).toHaveValue(phone);
    if (js) {
      await page.getByRole("radio", { name: /Bank transfer \/ Raast/ }).check();
      expect(await audit(page, "checkout with the transfer chosen")).toEqual([]);
    }
    await page.getByRole("button", { name: "Pay in advance by bank transfer" }).click();
    await expect(page).toHaveURL(/\/order-success\/[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).pathname.split("/").pop()!;
    const short = orderId.slice(-8).toUpperCase();

    await page.goto(`/my-orders/${orderId}`);
    const payment = page.locator(".transfer-payment");
    await expect(payment.getByText("IBAN")).toBeVisible();
    await expect(payment.getByText("Account title")).toBeVisible();
    if (js) expect(await audit(page, "order page with the account")).toEqual([]);
    // An empty reference: said beside the field, nothing sent.
    await payment.getByRole("button", { name: "Send reference" }).click();
    await expect(page.getByText("Enter the transaction reference (TID) of your transfer")).toBeVisible();
    await page.getByLabel("Transaction reference (TID)").fill("RAAST 7781 2026");
    // A phone's screenshot of the bank app: tall and narrow.
    const screenshot = await sharp({
      create: { width: 540, height: 1200, channels: 3, background: { r: 20, g: 90, b: 60 } },
    })
      .png()
      .toBuffer();
    await page
      .getByLabel("Screenshot of the transfer (optional)")
      .setInputFiles({ name: "raast-receipt.png", mimeType: "image/png", buffer: screenshot });
    await page.getByRole("button", { name: "Send reference" }).click();
    await expect(payment).toContainText("reference RAAST 7781 2026");
    await expect(payment.getByRole("link", { name: "Your screenshot of the transfer" })).toBeVisible();

    await admin.goto(`/admin/orders/${orderId}`);
    await expect(admin.locator(".order-payment")).toContainText("Reference RAAST 7781 2026");
    // The screenshot beside the reference, before verifying: its thumbnail loads, and links to the full image.
    const thumbnail = admin.getByRole("img", { name: /screenshot of the transfer/ });
    await expect(thumbnail).toBeVisible();
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(240);
    const full = await admin.request.get(
      (await admin.getByRole("link", { name: /screenshot of the transfer/ }).getAttribute("href"))!,
    );
    expect(full.status()).toBe(200);
    expect(full.headers()["content-type"]).toBe("image/webp");
    await admin.getByRole("button", { name: /^Verify payment of Rs\./ }).click();
    await expect(admin.getByText("Payment verified: the order may ship.")).toBeVisible();

    const select = admin.getByLabel(`Status of order #${short}`);
    await select.selectOption("Shipped");
    if (!js) await select.locator("xpath=ancestor::form").getByRole("button", { name: "Update" }).click();
    await expect(admin.getByRole("heading", { name: `Ship order #${short}` })).toBeVisible();
    await admin.getByLabel("Courier", { exact: true }).selectOption("Leopards");
    await admin.getByLabel("Tracking Number").fill(`LP-${Date.now()}`);
    // Confirmed by its verified payment, it ships without "not confirmed by phone, ship anyway?"
    // (docs/decisions/2026-11-26-advance-payment.md, "Consequences").
    await admin.getByRole("button", { name: "Mark as Shipped" }).click();
    await expect(admin.getByText("Order status updated to Shipped")).toBeVisible();
    await expect(admin.locator(".order-details .status--shipped")).toHaveText("Shipped");

    await page.goto(`/my-orders/${orderId}`);
    await expect(page.locator(".status--shipped").first()).toHaveText("Shipped");
  } finally {
    const restored = await request.put(settingsUrl, {
      headers: { authorization: `Bearer ${token}` },
      data: { firstTimeCodLimit: rulesBefore.firstTimeCodLimit },
    });
    expect(restored.status()).toBe(200);
    await admin.context().close();
  }
});
