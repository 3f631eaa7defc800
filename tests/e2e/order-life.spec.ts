import { expect, test } from "./fixtures";
import { confirmedOrder, consignmentsOf } from "./courier-journeys";
import { ADMIN, adminToken, logIn, placeOrder, productsInStock, registerCustomer, setOrderStatus } from "./store-api";

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

test("a delivered cash order cancelled: its refund refused without a reference, then recorded; the customer reads it", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const token = await adminToken(request);
  const customer = await registerCustomer(request, `refund.${testInfo.project.name}`);
  const [product] = await productsInStock(request);
  const orderId = await placeOrder(request, customer, product!._id);
  await setOrderStatus(request, token, orderId, "Delivered");
  await setOrderStatus(request, token, orderId, "Cancelled");
  const short = orderId.slice(-8).toUpperCase();

  await logIn(page, ADMIN);
  await page.goto(`/admin/orders/${orderId}`);
  const refund = page.getByRole("region", { name: "Refund" });
  await expect(refund).toContainText("is owed to the customer: the store received it for this cancelled order.");
  await refund.getByLabel("Refunded by").selectOption("JazzCash");
  await refund.getByRole("button", { name: "Record the refund" }).click();
  // Refused beside its field, the method chosen kept.
  await expect(page.getByText("Enter the transaction's reference")).toBeVisible();
  await expect(page.getByRole("region", { name: "Refund" }).getByLabel("Refunded by")).toHaveValue("JazzCash");
  await page
    .getByRole("region", { name: "Refund" })
    .getByLabel("Transaction reference (not for cash)")
    .fill("JC-44120");
  await page.getByRole("region", { name: "Refund" }).getByRole("button", { name: "Record the refund" }).click();
  await expect(page.getByText("Refund recorded.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Refund" })).toContainText("by JazzCash, reference JC-44120");
  // Restoring the order is no longer offered by the table: the refund was paid.
  const restored = await request.patch(`/api/v1/orders/${orderId}/status`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { status: "Pending" },
  });
  expect(restored.status()).toBe(409);

  const customerContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const shopper = await customerContext.newPage();
  await logIn(shopper, customer);
  await shopper.goto(`/my-orders/${orderId}`);
  await expect(shopper.getByRole("heading", { name: `Order #${short}` })).toBeVisible();
  await expect(shopper.getByText(/by JazzCash, reference JC-44120/)).toBeVisible();
  await customerContext.close();
});
