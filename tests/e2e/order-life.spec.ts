import { expect, test } from "./fixtures";
import { confirmedOrder, consignmentsOf } from "./courier-journeys";
import { ADMIN, adminToken, logIn, registerCustomer } from "./store-api";

/**
 * One order life, with JavaScript off and on (docs/product.md, "An order's life"): a parcel booked
 * with PostEx is the courier's. The customer's cancel of it is refused with the words to contact the
 * store, and nothing changes; the admin's cancel cancels the consignment through PostEx's cancel
 * call first, then the order.
 */
test("a booked order: the customer's cancel is refused; the admin's cancels the consignment first", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const token = await adminToken(request);
  const customer = await registerCustomer(request, `booked.${testInfo.project.name}`);
  const orderId = await confirmedOrder(request, customer, token, "Lahore");
  const short = orderId.slice(-8).toUpperCase();
  const booked = await request.post(`/api/v1/orders/${orderId}/shipment`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { courier: "postex" },
  });
  expect(booked.status(), await booked.text()).toBe(200);

  // The customer: no cancel offered, and the cancel page says why.
  await logIn(page, customer);
  await page.goto(`/my-orders/${orderId}`);
  await expect(page.getByRole("heading", { name: `Order #${short}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cancel order" })).toHaveCount(0);
  await page.goto(`/my-orders/${orderId}/cancel`);
  await expect(page.getByRole("alert")).toHaveText(
    "This order was already handed to the courier: contact us to cancel it, and we stop the parcel",
  );
  await expect(page.getByRole("button", { name: "Yes, cancel order" })).toHaveCount(0);
  expect(await consignmentsOf(request, "postex", orderId)).toEqual([expect.objectContaining({ cancelled: false })]);

  // The admin cancels it: PostEx's consignment is cancelled, then the order.
  const adminContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const admin = await adminContext.newPage();
  await logIn(admin, ADMIN);
  await admin.goto(`/admin/orders/${orderId}`);
  await admin.getByLabel(`Status of order #${short}`).selectOption("Cancelled");
  if (testInfo.project.name !== "js") await admin.getByRole("button", { name: "Update" }).click();
  await expect(admin.getByText("Order status updated to Cancelled")).toBeVisible();
  await expect(admin.locator(".order-details .status").first()).toHaveText("Cancelled");
  expect(await consignmentsOf(request, "postex", orderId)).toEqual([expect.objectContaining({ cancelled: true })]);
  await adminContext.close();
});
