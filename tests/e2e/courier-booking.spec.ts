import type { Browser, Page, TestInfo } from "@playwright/test";
import { audit } from "./axe-audit";
import {
  COURIER_FAKES,
  confirmedOrder,
  consignmentsOf,
  courierReports,
  syncNow,
  type FakeCourierId,
} from "./courier-journeys";
import { expect, test } from "./fixtures";
import { ADMIN, adminToken, logIn, registerCustomer, type Account } from "./store-api";

/**
 * Couriers through their APIs, with JavaScript off and on (docs/product.md, "Couriers through
 * their APIs"): the admin books a confirmed order with PostEx or Leopards from its page (picking
 * the city from the courier's list when the order's is not one of them), opens the airway bill and
 * the packing slip with the tracking number's barcode; the courier picks the parcel up, attempts
 * it with a reason and delivers it; the admin's order page and the customer's show the timeline,
 * the order Shipped, then Delivered. The couriers are the fakes the worker's store starts with
 * (tests/e2e/worker-store.ts), moved through their control paths (tests/support/courier-fakes/).
 */

type CourierJourney = {
  id: FakeCourierId;
  name: "PostEx" | "Leopards";
  port: number;
  /** What the courier says of a parcel booked and not yet picked up, in its own words. */
  booked: string;
  /** What the courier reports next, oldest first, in its own words. */
  pickedUp: { text: string; code?: string };
  attempted: { text: string; code?: string; reason?: string };
  delivered: { text: string; code?: string };
};

const POSTEX: CourierJourney = {
  id: "postex",
  name: "PostEx",
  port: COURIER_FAKES.postex,
  booked: "Booked",
  pickedUp: { text: "At PostEx Warehouse", code: "0003" },
  attempted: { text: "Attempt Made: Customer not available", code: "0013" },
  delivered: { text: "Delivered to Customer", code: "0005" },
};

const LEOPARDS: CourierJourney = {
  id: "leopards",
  name: "Leopards",
  port: COURIER_FAKES.leopards,
  booked: "Pickup Request not Send",
  pickedUp: { text: "Shipment Picked" },
  attempted: { text: "Pending", reason: "Customer not available" },
  delivered: { text: "Delivered" },
};

async function customerPage(browser: Browser, testInfo: TestInfo, customer: Account): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const page = await context.newPage();
  await logIn(page, customer);
  return page;
}

/** The timeline's lines as the page shows them, oldest first. */
const timelineOf = (page: Page) => page.locator(".parcel-timeline__events > li");

/**
 * The timeline holds the booked line and the courier's later reports in their order. Where the
 * booked line falls among them is left open: the fakes give that status no time of its own (the store
 * stamps it when it first hears it), and Leopards times its reports to the minute, so within
 * the journey's one minute a pickup can be listed before it.
 */
async function expectTimeline(page: Page, courier: CourierJourney, reported: string[]) {
  await expect(timelineOf(page)).toContainText([`Booked (${courier.booked})`]);
  await expect(timelineOf(page)).toContainText(reported);
}

/**
 * After booking: the airway bill, the slip's barcode; the courier picks the parcel up (Shipped),
 * attempts it with a reason and delivers it (Delivered); the admin and the customer see the timeline.
 */
async function followTheParcel(
  admin: Page,
  browser: Browser,
  testInfo: TestInfo,
  {
    courier,
    orderId,
    tracking,
    customer,
    token,
  }: {
    courier: CourierJourney;
    orderId: string;
    tracking: string;
    customer: Account;
    token: string;
  },
) {
  const js = testInfo.project.name === "js";
  const request = admin.request;
  const orderUrl = `/admin/orders/${orderId}`;
  // Booked, the order waits for the courier to pick the parcel up.
  await expect(admin.locator(".order-details .status").first()).toHaveText("Pending");
  await expect(admin.getByRole("button", { name: "Cancel booking" })).toBeVisible();
  if (js) expect(await audit(admin, "admin order page with a booking")).toEqual([]);

  // The airway bill, as the admin's browser fetches the link.
  const bill = admin.getByRole("link", { name: "Print airway bill" });
  await expect(bill).toHaveAttribute("href", `${orderUrl}/airway-bill`);
  if (courier.id === "postex") {
    // PostEx's invoice PDF, fetched by the store with its token and answered from the store.
    const pdf = await request.get(`${orderUrl}/airway-bill`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  } else {
    // Leopards' slip link: the store sends the browser there, and the courier answers the slip.
    const redirected = await request.get(`${orderUrl}/airway-bill`, { maxRedirects: 0 });
    expect(redirected.status()).toBe(302);
    const slipLink = redirected.headers()["location"]!;
    expect(slipLink).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${courier.port}/slips/${tracking}-[0-9a-f]+\\.pdf$`));
    const slip = await request.get(slipLink);
    expect(slip.status()).toBe(200);
    expect((await slip.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  }

  // The packing slip carries the tracking number as a barcode, with the number under it.
  await admin.goto(`${orderUrl}/slip`);
  const barcode = admin.getByRole("img", { name: `Barcode of tracking number ${tracking}` });
  await expect(barcode).toBeVisible();
  await expect(barcode.locator("svg path, svg rect").first()).toBeAttached();
  await expect(admin.locator(".slip__barcode-number")).toHaveText(tracking);

  // Followed before pickup (the scheduled sync may have run already): booked, still Pending.
  await syncNow(request, token);
  await admin.goto(orderUrl);
  await expect(timelineOf(admin)).toHaveCount(1);
  await expect(timelineOf(admin).nth(0)).toContainText(`Booked (${courier.booked})`);
  await expect(admin.locator(".order-details .status").first()).toHaveText("Pending");

  // Picked up: the order is Shipped, and can no longer be cancelled with the courier.
  await courierReports(request, courier.id, tracking, courier.pickedUp);
  await syncNow(request, token);
  await admin.goto(orderUrl);
  await expect(admin.locator(".order-details .status").first()).toHaveText("Shipped");
  await expect(timelineOf(admin)).toHaveCount(2);
  await expectTimeline(admin, courier, [`Picked up (${courier.pickedUp.text})`]);
  await expect(admin.getByRole("button", { name: "Cancel booking" })).toHaveCount(0);

  // An attempt with its reason, then the delivery.
  await courierReports(request, courier.id, tracking, courier.attempted);
  await courierReports(request, courier.id, tracking, courier.delivered);
  await syncNow(request, token);
  await admin.goto(orderUrl);
  await expect(admin.locator(".order-details .status").first()).toHaveText("Delivered");
  const reported = [
    `Picked up (${courier.pickedUp.text})`,
    `Delivery attempted (${courier.attempted.text}) Reason: Customer not available`,
    `Delivered (${courier.delivered.text})`,
  ];
  await expect(timelineOf(admin)).toHaveCount(4);
  await expectTimeline(admin, courier, reported);
  await expect(admin.getByRole("heading", { name: `Parcel with ${courier.name}` })).toBeVisible();

  // The customer sees the same timeline on their order's page.
  const customerView = await customerPage(browser, testInfo, customer);
  try {
    await customerView.goto(`/my-orders/${orderId}`);
    await expect(customerView.locator(".status--delivered").first()).toHaveText("Delivered");
    await expect(customerView.getByRole("heading", { name: `Parcel with ${courier.name}` })).toBeVisible();
    await expect(timelineOf(customerView)).toHaveCount(4);
    await expectTimeline(customerView, courier, reported);
    if (js) expect(await audit(customerView, "customer's order page with a timeline")).toEqual([]);
  } finally {
    await customerView.context().close();
  }
}

test.describe("couriers through their APIs", () => {
  // A booking, two syncs and two people's pages: longer than one page's journey.
  test.slow();

  test("PostEx: the admin books a confirmed order, prints the airway bill and the slip; picked up, attempted, delivered; admin and customer see the timeline", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const token = await adminToken(request);
    const customer = await registerCustomer(request, `postex.${testInfo.project.name}`);
    const orderId = await confirmedOrder(request, customer, token, "Lahore");

    await logIn(page, ADMIN);
    await page.goto(`/admin/orders/${orderId}`);
    const panel = page.locator(".courier-booking");
    await expect(panel.getByRole("heading", { name: "Courier booking" })).toBeVisible();
    await panel.getByRole("button", { name: "Book with PostEx" }).click();
    const booked = page.getByText(/^Booked with PostEx: tracking number \d{14}$/).last();
    await expect(booked).toBeVisible();
    const tracking = /(\d{14})$/.exec((await booked.textContent())!)![1]!;
    await expect(panel).toContainText(`Booked with PostEx: tracking number ${tracking}`);
    // One consignment, with the order's number as its reference.
    expect(await consignmentsOf(request, "postex", orderId)).toEqual([
      expect.objectContaining({ trackingNumber: tracking }),
    ]);

    await followTheParcel(page, browser, testInfo, { courier: POSTEX, orderId, tracking, customer, token });
  });

  test("Leopards: the order's city is not in Leopards' list, the admin picks it on the same page and books; the slip link; picked up, attempted, delivered", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const token = await adminToken(request);
    const customer = await registerCustomer(request, `leopards.${testInfo.project.name}`);
    const orderId = await confirmedOrder(request, customer, token, "Lahore Cantt");

    await logIn(page, ADMIN);
    await page.goto(`/admin/orders/${orderId}`);
    const panel = page.locator(".courier-booking");
    await panel.getByRole("button", { name: "Book with Leopards" }).click();
    // The order's city is not one of Leopards': its list, on the same page, nothing booked.
    await expect(
      panel.getByText(`"Lahore Cantt" is not one of the Leopards cities: choose the city from the list`),
    ).toBeVisible();
    const city = panel.getByLabel("City on the Leopards list");
    await expect(city.locator("option")).toHaveText([
      "Choose the city",
      "Faisalabad",
      "Islamabad",
      "Karachi",
      "Lahore",
      "Rawalpindi",
    ]);
    await expect(panel).not.toContainText("Booked with");
    await city.selectOption("Lahore");
    await panel.getByRole("button", { name: "Book with Leopards" }).click();
    const booked = page.getByText(/^Booked with Leopards: tracking number LE\d+$/).last();
    await expect(booked).toBeVisible();
    const tracking = /(LE\d+)$/.exec((await booked.textContent())!)![1]!;

    // Booked to the city chosen, Lahore's id in Leopards' list.
    expect(await consignmentsOf(request, "leopards", orderId)).toEqual([
      expect.objectContaining({
        trackingNumber: tracking,
        booking: expect.objectContaining({ destination_city: "789" }),
      }),
    ]);

    await followTheParcel(page, browser, testInfo, { courier: LEOPARDS, orderId, tracking, customer, token });
  });
});
