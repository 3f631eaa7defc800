import fs from "node:fs";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { logIn } from "./sign-in";

/**
 * Orders a courier can deliver, with JavaScript off and on: a customer checks out with a mobile
 * number; the admin finds the order, confirms it by phone, ships it with a courier and a tracking
 * number, prints its packing slip and exports the orders as CSV; the customer sees the courier
 * and the tracking number under My Orders.
 */
const ADMIN = { email: "admin@waqt.pk", password: "admin12345", name: "Ayesha Khan" };

/** A mobile number of this run and project, so that a search finds only this journey's orders. */
function mobileNumberFor(testInfo: TestInfo, slot: number): { typed: string; shown: string } {
  const digits = String((Date.now() + slot) % 10_000_000).padStart(7, "0");
  const network = testInfo.project.name === "js" ? "0345" : "0346";
  return { typed: `${network} ${digits}`, shown: `${network}-${digits}` };
}

async function adminPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    javaScriptEnabled: testInfo.project.name === "js",
    acceptDownloads: true,
  });
  const admin = await context.newPage();
  await admin.goto("/login?redirectTo=%2Fadmin%2Forders");
  await logIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin.getByRole("heading", { name: "Manage Orders" })).toBeVisible();
  return admin;
}

/** Chooses a status in an order's select: the select sends it with JavaScript, the Update button without. */
async function chooseStatus(page: Page, short: string, status: string, testInfo: TestInfo) {
  const select = page.getByLabel(`Status of order #${short}`);
  await select.selectOption(status);
  if (testInfo.project.name !== "js") {
    await select.locator("xpath=ancestor::form").getByRole("button", { name: "Update" }).click();
  }
}

test.describe("orders a courier can deliver", () => {
  test("check out with a phone; the admin confirms, ships with courier and tracking, prints the slip and exports CSV; the customer sees them", async ({
    page,
    browser,
  }, testInfo) => {
    const phone = mobileNumberFor(testInfo, 0);
    const email = `courier.${testInfo.project.name}.${Date.now()}@example.com`;
    expect(
      (
        await page.request.post("/api/v1/auth/register", {
          data: { name: "Sana Mirza", email, password: "password123" },
        })
      ).status(),
    ).toBe(201);
    await page.goto("/login");
    await logIn(page, email, "password123");
    await expect(page).toHaveURL(/\/$/);

    // A watch into the cart, then checkout with the mobile number.
    await page.goto("/products?sort=-price");
    const card = page
      .locator(".product-card")
      .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
      .first();
    const watch = (await card.locator(".product-card__name").textContent())!;
    await card.getByRole("button", { name: /^Add to Cart / }).click();
    await expect(page.locator(".cart-link")).not.toHaveAccessibleName("Cart");
    await page.goto("/checkout");
    await page.getByLabel("Street Address").fill("Flat 4, Block B, Gulshan-e-Iqbal");
    await page.getByLabel("City").fill("Karachi");
    await page.getByLabel("State / Province").fill("Sindh");
    await page.getByLabel("ZIP / Postal Code").fill("75300");
    await page.getByLabel("Mobile Number").fill("0300 12345");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByText("Enter a Pakistani mobile number, e.g. 0300-1234567")).toBeVisible();
    await expect(page.getByLabel("Street Address")).toHaveValue("Flat 4, Block B, Gulshan-e-Iqbal");
    await page.getByLabel("Mobile Number").fill(phone.typed);
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page.getByText(`We call you on ${phone.shown} to confirm your order`)).toBeVisible();
    const orderId = page.url().split("/").pop()!;
    const short = orderId.slice(-8).toUpperCase();

    // The admin finds it among the Pending orders still to call, searching by its phone.
    const admin = await adminPage(browser, testInfo);
    await admin.getByLabel("Search").fill(phone.shown);
    await admin.getByLabel("Status", { exact: true }).selectOption("Unconfirmed");
    await admin.getByRole("button", { name: "Filter" }).click();
    await expect(admin).toHaveURL(/status=Unconfirmed/);
    const row = admin.locator("tbody tr").filter({ hasText: `#${short}` });
    await expect(admin.locator("tbody tr")).toHaveCount(1);
    await expect(row).toContainText("Sana Mirza");
    await expect(row).toContainText(phone.shown);
    await expect(row).toContainText("0 delivered, 0 cancelled");

    // Confirmed by phone: recorded with who and when, and undoable.
    await row.getByRole("button", { name: "Confirmed by phone" }).click();
    await expect(admin.getByText(`Order #${short} confirmed by phone`)).toBeVisible();
    // Confirmed, it has left the "not confirmed" filter; the order's page says who confirmed it.
    await expect(admin.getByText("No orders found")).toBeVisible();
    await admin.goto(`/admin/orders/${orderId}`);
    await expect(admin.locator(".confirmation__badge")).toHaveText("Confirmed by phone");
    await expect(admin.getByText(`by ${ADMIN.name},`)).toBeVisible();
    await admin.getByRole("button", { name: "Undo" }).click();
    await expect(admin.getByText(`Confirmation of order #${short} undone`)).toBeVisible();
    await admin.getByRole("button", { name: "Confirmed by phone" }).click();
    await expect(admin.getByText(`Order #${short} confirmed by phone`)).toBeVisible();

    // Shipped: the courier and the tracking number, asked on a page of their own.
    const tracking = `LP-${Date.now()}`;
    await chooseStatus(admin, short, "Shipped", testInfo);
    await expect(admin.getByRole("heading", { name: `Ship order #${short}` })).toBeVisible();
    await admin.getByRole("button", { name: "Mark as Shipped" }).click();
    await expect(admin.getByText("Choose the courier").last()).toBeVisible();
    await expect(admin.getByText("Tracking number is required")).toBeVisible();
    await admin.getByLabel("Courier", { exact: true }).selectOption("Leopards");
    await admin.getByLabel("Tracking Number").fill(tracking);
    await admin.getByRole("button", { name: "Mark as Shipped" }).click();
    await expect(admin.getByText("Order status updated to Shipped")).toBeVisible();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await expect(admin.locator(".order-details .status--shipped")).toHaveText("Shipped");
    await expect(admin.locator(".order-details")).toContainText(tracking);

    // The packing slip: printable, no site navigation, the receiver in large type, the amount to collect.
    await admin.getByRole("link", { name: "Print slip" }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}/slip$`));
    const slip = admin.getByRole("article", { name: `Packing slip for order #${short}` });
    await expect(slip.locator(".slip__name")).toHaveText("Sana Mirza");
    await expect(slip.locator(".slip__phone")).toHaveText(phone.shown);
    await expect(slip).toContainText("Flat 4, Block B, Gulshan-e-Iqbal");
    await expect(slip).toContainText(watch);
    await expect(slip).toContainText("Cash on Delivery: collect Rs.");
    await expect(slip).toContainText(`Leopards ${tracking}`);
    await expect(admin.locator("header.site-header, footer.site-footer, nav")).toHaveCount(0);
    await admin.emulateMedia({ media: "print" });
    await expect(admin.locator(".slip-toolbar")).toBeHidden();
    await expect(slip).toBeVisible();
    await admin.emulateMedia({ media: "screen" });

    // Print slips and Export CSV for the list's filter.
    await admin.goto(`/admin/orders?search=${encodeURIComponent(phone.shown)}`);
    await admin.getByRole("link", { name: "Print slips" }).click();
    await expect(admin).toHaveURL(/\/admin\/orders\/slips\?search=/);
    await expect(admin.locator("article.slip")).toHaveCount(1);
    await expect(admin.getByText("1 slip, one a page.")).toBeVisible();
    await admin.getByRole("link", { name: "A4 paper" }).click();
    await expect(admin.locator(".slips--a4 article.slip")).toHaveCount(1);
    await admin.getByRole("link", { name: "Back to orders" }).click();
    await expect(admin.getByRole("heading", { name: "Manage Orders" })).toBeVisible();
    const downloading = admin.waitForEvent("download");
    await admin.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "Order,Date,Customer,Email,Phone,City,Address,Items,Subtotal,Discount,Total,Refund,Status,Courier,Tracking Number",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`#${short},`);
    expect(lines[1]).toContain(`,Sana Mirza,${email},${phone.shown},Karachi,`);
    expect(lines[1]).toContain(`,Shipped,Leopards,${tracking}`);

    // The customer sees the courier and the tracking number.
    await page.goto("/my-orders");
    const order = page.getByRole("article", { name: `Order #${short}` });
    await expect(order.locator(".status--shipped")).toHaveText("Shipped");
    await expect(order).toContainText("Courier: Leopards");
    await expect(order).toContainText(`Tracking number: ${tracking}`);
    await admin.context().close();
  });

  test("shipping an order not confirmed by phone asks once more", async ({ page, browser }, testInfo) => {
    const phone = mobileNumberFor(testInfo, 1);
    // The customer orders through the API (with the phone), to keep the journey short.
    const email = `unconfirmed.${testInfo.project.name}.${Date.now()}@example.com`;
    const registered = await page.request.post("/api/v1/auth/register", {
      data: { name: "Hamza Qureshi", email, password: "password123" },
    });
    const token = (await registered.json()).data.token as string;
    const headers = { authorization: `Bearer ${token}` };
    const products = await (await page.request.get("/api/v1/products?sort=-price&limit=20")).json();
    const product = products.data.find((candidate: { stock: number }) => candidate.stock > 0);
    expect(
      (await page.request.post("/api/v1/cart", { headers, data: { productId: product._id, quantity: 1 } })).ok(),
    ).toBe(true);
    const placed = await page.request.post("/api/v1/orders", {
      headers,
      data: {
        address: { street: "9 Jail Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
        phone: phone.typed,
      },
    });
    expect(placed.status()).toBe(201);
    const orderId = (await placed.json()).data._id as string;
    const short = orderId.slice(-8).toUpperCase();

    const admin = await adminPage(browser, testInfo);
    await admin.goto(`/admin/orders?search=${short}`);
    await chooseStatus(admin, short, "Shipped", testInfo);
    await admin.getByLabel("Courier", { exact: true }).selectOption("M&P");
    await admin.getByLabel("Tracking Number").fill("MP-777000");
    await admin.getByRole("button", { name: "Mark as Shipped" }).click();
    await expect(
      admin.getByText(
        `Order #${short} has not been confirmed by phone. Ship it anyway with M&P, tracking number MP-777000?`,
      ),
    ).toBeVisible();
    // "No" leaves it Pending; asked again, "Yes" ships it.
    await admin.getByRole("link", { name: "No, go back" }).click();
    await expect(admin.locator(".order-details .status--pending")).toHaveText("Pending");
    await chooseStatus(admin, short, "Shipped", testInfo);
    await admin.getByLabel("Courier", { exact: true }).selectOption("M&P");
    await admin.getByLabel("Tracking Number").fill("MP-777000");
    await admin.getByRole("button", { name: "Mark as Shipped" }).click();
    await admin.getByRole("button", { name: "Yes, ship it" }).click();
    await expect(admin.getByText("Order status updated to Shipped")).toBeVisible();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await expect(admin.locator(".order-details .status--shipped")).toHaveText("Shipped");
    await admin.goto(`/admin/orders?search=${short}`);
    const row = admin.locator("tbody tr").filter({ hasText: `#${short}` });
    await expect(row.locator(".status--shipped")).toHaveText("Shipped");
    await expect(row).toContainText("Courier: M&P");
    await expect(row).toContainText("Not confirmed by phone");
    await admin.context().close();
  });
});
