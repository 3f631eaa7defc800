import { expect, test } from "./fixtures";
import { confirmedOrder, consignmentsOf, setCourierMode } from "./courier-journeys";
import { ADMIN, adminToken, logIn, registerCustomer } from "./store-api";

/**
 * A courier's refusal and a booking cancelled before pickup, with JavaScript off and on
 * (docs/product.md, "Couriers through their APIs"): the courier's own words beside the buttons
 * and "Try again", nothing booked and the order as it was; then booked, and cancelled through
 * the courier's cancel call, the order free to be booked again.
 */
// A courier's refusal is answered 502 (the courier, not the admin, failed); the browser logs the status.
test.use({ allowConsoleErrors: [/the server responded with a status of 502 \(Bad Gateway\)/] });

test("PostEx refuses: its words and Try again, nothing booked; booked on the second try, then cancelled before pickup", async ({
  page,
  request,
}, testInfo) => {
  const token = await adminToken(request);
  const customer = await registerCustomer(request, `refused.${testInfo.project.name}`);
  const orderId = await confirmedOrder(request, customer, token, "Karachi");
  await logIn(page, ADMIN);
  await page.goto(`/admin/orders/${orderId}`);
  const panel = page.locator(".courier-booking");

  await setCourierMode(request, "postex", { kind: "refuse", message: "Customer phone is not valid" });
  try {
    await panel.getByRole("button", { name: "Book with PostEx" }).click();
    // The courier's own words (refusing the booking, or its city list when the store has none kept yet).
    await expect(panel.getByRole("alert")).toContainText("PostEx: Customer phone is not valid");
    await expect(panel.getByRole("button", { name: "Try again with PostEx" })).toBeVisible();
  } finally {
    await setCourierMode(request, "postex", { kind: "ok" });
  }
  // Nothing booked, the order as it was; the other courier still offered as it was.
  expect(await consignmentsOf(request, "postex", orderId)).toEqual([]);
  await expect(page.locator(".order-details .status").first()).toHaveText("Pending");
  await expect(panel).not.toContainText("Booked with");
  await expect(panel.getByRole("button", { name: "Book with Leopards" })).toBeVisible();

  await panel.getByRole("button", { name: "Try again with PostEx" }).click();
  const booked = panel.getByText(/^Booked with PostEx: tracking number \d{14}$/);
  await expect(booked).toBeVisible();
  const [consignment] = await consignmentsOf(request, "postex", orderId);
  expect(consignment).toMatchObject({ cancelled: false });
  await expect(booked).toHaveText(`Booked with PostEx: tracking number ${consignment!.trackingNumber}`);

  // Cancelled before pickup, through PostEx's cancel call: the order can be booked again.
  await panel.getByRole("button", { name: "Cancel booking" }).click();
  await expect(page.getByText("Booking cancelled: the order can be booked again.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Book with PostEx" })).toBeVisible();
  await expect(panel).not.toContainText("Booked with");
  await expect(page.locator(".order-details .status").first()).toHaveText("Pending");
  expect(await consignmentsOf(request, "postex", orderId)).toEqual([
    expect.objectContaining({ trackingNumber: consignment!.trackingNumber, cancelled: true }),
  ]);
});
