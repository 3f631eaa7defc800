import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { audit } from "./axe-audit";
import { COURIER_FAKES, confirmedOrder, courierReports, syncNow, type FakeCourierId } from "./courier-journeys";
import { expect, test } from "./fixtures";
import { ADMIN, adminToken, logIn, registerCustomer } from "./store-api";

/**
 * What each courier owes, with JavaScript off and on (docs/couriers.md, "Payments"): a PostEx
 * parcel is delivered and its cash paid over today, a Leopards parcel starts back to the store;
 * after a sync, /admin/couriers counts each among its courier's figures and its CSV carries the
 * same. The worker's store is shared by the journeys of its worker, so the figures are read before and after.
 */

const COLUMNS = ["Courier", "Delivered, not paid yet", "Paid in", "Out over", "Returns on the way back"];

/** Today's date in Pakistan, as a courier writes the day it paid. */
const todayInPakistan = () => new Date(Date.now() + 5 * 60 * 60 * 1000).toISOString().slice(0, 10);

type Figures = { paid: number; returning: number };

/** One courier's line of the table: the parcels counted in each figure. */
async function figuresOf(page: Page, courier: "PostEx" | "Leopards"): Promise<Figures> {
  const row = page.locator("tbody tr").filter({ has: page.locator("td").first().getByText(courier, { exact: true }) });
  await expect(row).toHaveCount(1);
  const parcels = async (cell: Locator) => Number(/^(\d+) parcels?,/.exec((await cell.innerText()).trim())?.[1]);
  return { paid: await parcels(row.locator("td").nth(2)), returning: await parcels(row.locator("td").nth(4)) };
}

async function bookedWith(request: APIRequestContext, token: string, orderId: string, courier: FakeCourierId) {
  const booked = await request.post(`/api/v1/orders/${orderId}/shipment`, {
    headers: { authorization: `Bearer ${token}` },
    data: { courier },
  });
  expect(booked.status(), await booked.text()).toBe(200);
  return ((await booked.json()).data as { trackingNumber: string }).trackingNumber;
}

test("the couriers page counts a parcel paid this month and a return on its way back, and downloads as CSV", async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const token = await adminToken(request);
  const customer = await registerCustomer(request, `ledger.${testInfo.project.name}`);
  await logIn(page, ADMIN);
  await page.goto("/admin/couriers");
  await expect(page.getByRole("heading", { level: 1, name: "Couriers" })).toBeVisible();
  const headers = page.locator("thead th");
  for (const [index, header] of COLUMNS.entries()) await expect(headers.nth(index)).toContainText(header);
  const before = { postex: await figuresOf(page, "PostEx"), leopards: await figuresOf(page, "Leopards") };

  // PostEx picks a parcel up, delivers it and pays its cash over today.
  const paidOrder = await confirmedOrder(request, customer, token, "Karachi");
  const paidParcel = await bookedWith(request, token, paidOrder, "postex");
  await courierReports(request, "postex", paidParcel, { text: "At PostEx Warehouse", code: "0003" });
  await courierReports(request, "postex", paidParcel, { text: "Delivered to Customer", code: "0005" });
  const paid = await request.post(`http://127.0.0.1:${COURIER_FAKES.postex}/__fake/parcels/${paidParcel}/payment`, {
    data: { date: todayInPakistan(), receipt: `CPR-${testInfo.project.name}` },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  // Leopards picks one up and starts it back to the store.
  const returnOrder = await confirmedOrder(request, customer, token, "Lahore");
  const returnParcel = await bookedWith(request, token, returnOrder, "leopards");
  await courierReports(request, "leopards", returnParcel, { text: "Shipment Picked" });
  await courierReports(request, "leopards", returnParcel, { text: "Being Return" });
  await syncNow(request, token);

  // The admin menu leads there; the figures count both parcels.
  await page.goto("/admin");
  await page.getByRole("navigation", { name: /admin/i }).getByRole("link", { name: "Couriers" }).click();
  await expect(page).toHaveURL(/\/admin\/couriers$/);
  expect(await figuresOf(page, "PostEx")).toEqual({ ...before.postex, paid: before.postex.paid + 1 });
  expect(await figuresOf(page, "Leopards")).toEqual({ ...before.leopards, returning: before.leopards.returning + 1 });
  if (testInfo.project.name === "js") expect(await audit(page, "/admin/couriers")).toEqual([]);

  // The CSV: the same figures, one line a courier, private to the admin's session.
  const download = page.getByRole("link", { name: "Download CSV" });
  await expect(download).toHaveAttribute("href", "/admin/couriers/export.csv");
  const csv = await page.request.get("/admin/couriers/export.csv");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers()["cache-control"]).toBe("private, no-store");
  const [header, ...lines] = (await csv.text()).trim().split(/\r?\n/);
  expect(header).toMatch(/^Courier,"?Delivered, not paid \(parcels\)"?,/);
  const postexLine = lines.find((line) => line.startsWith("PostEx,"))!.split(",");
  expect(Number(postexLine[3])).toBe(before.postex.paid + 1);
  const leopardsLine = lines.find((line) => line.startsWith("Leopards,"))!.split(",");
  expect(Number(leopardsLine[7])).toBe(before.leopards.returning + 1);
});
