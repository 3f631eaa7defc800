import { confirmationLink, placedOrder } from "./confirmation-link";
import { expect, test } from "./fixtures";
import { ADMIN, logIn } from "./sign-in";

/**
 * The customer's confirmation of an order (docs/product.md, "Confirming an order"), JavaScript
 * off and on: the link of the confirmation message (the journeys' server has no WhatsApp or SMS,
 * so each text is a file under its DATA_DIR) opens the order in its language, Urdu right to
 * left or English, and confirms or cancels it; the admin filters the list by confirmation and
 * reads the order's messages.
 */
test.describe("the confirmation link", () => {
  test("in Urdu, right to left: the order's items and total, and Confirm", async ({ page, request }) => {
    const orderId = await placedOrder(request, "ur");
    await page.goto(await confirmationLink(orderId));
    await expect(page.locator("html")).toHaveAttribute("lang", "ur");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { name: "اپنے آرڈر کی تصدیق کریں" })).toBeVisible();
    await expect(page.getByText("فون نمبر جس کے آخری ہندسے 4567 ہیں")).toBeVisible();
    await expect(page.getByText(`#${orderId.slice(-8).toUpperCase()}`)).toBeVisible();
    await page.getByRole("button", { name: "آرڈر کی تصدیق کریں" }).click();
    await expect(page.getByText("شکریہ! آپ کے آرڈر کی تصدیق ہو گئی ہے")).toBeVisible();
    await expect(page.getByRole("button", { name: "آرڈر کی تصدیق کریں" })).toHaveCount(0);
  });

  test("in English: Cancel cancels the order, and the link then says so", async ({ page, request }) => {
    const orderId = await placedOrder(request, "en");
    const link = await confirmationLink(orderId);
    await page.goto(link);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { name: "Confirm your order" })).toBeVisible();
    await expect(page.getByText("Phone number ending in 4567")).toBeVisible();
    await page.getByRole("button", { name: "Cancel order" }).click();
    await expect(page.getByText("Your order has been cancelled.")).toBeVisible();
    await page.goto(link);
    await expect(page.getByText("Your order has been cancelled.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm order" })).toHaveCount(0);
  });
});

test.describe("the admin's view of confirmations", () => {
  test("filters the orders by confirmation and reads an order's messages", async ({ page, request }) => {
    const orderId = await placedOrder(request, "en");
    await page.goto(await confirmationLink(orderId));
    await page.getByRole("button", { name: "Confirm order" }).click();
    await expect(page.getByText("Thank you! Your order is confirmed")).toBeVisible();

    const short = orderId.slice(-8).toUpperCase();
    await page.goto("/login?redirectTo=%2Fadmin%2Forders");
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel("Search").fill(short);
    await page.getByLabel("Confirmation").selectOption("confirmed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/confirmation=confirmed/);
    const row = page.locator("tbody tr").filter({ hasText: `#${short}` });
    await expect(row).toContainText("Confirmed by the customer (the confirmation link)");
    await page.goto(`/admin/orders/${orderId}`);
    const messages = page.getByRole("region", { name: "Messages to the customer" });
    await expect(messages.locator("tbody tr").first()).toContainText("Confirmation");
    await expect(messages.locator("tbody tr").first()).toContainText("English");
    await expect(messages.locator("tbody tr").first()).toContainText("sent");
  });
});
