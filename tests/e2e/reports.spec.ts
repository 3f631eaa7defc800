import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { formatRupees } from "../../server/modules/shared/money.shared";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./held-scripts";
import { ADMIN, adminToken, logIn, placeOrder, productsInStock, registerCustomer } from "./store-api";

/**
 * The admin's reports, with JavaScript off and on (docs/product.md, "Reports"): /admin/reports
 * opens on sales; each of the six reports shows its chart (its title) and a table whose numbers
 * are the API's for the same days; a preset's link and a custom range (a GET form) change the
 * days; the products sold come a page at a time through plain links; the CSV downloads. With
 * JavaScript on, axe finds no serious or critical violation on any report page (the charts'
 * colours included).
 */

const REPORTS = [
  { name: "sales", tab: "Sales", chart: /^Revenue by (day|week|month)$/ },
  { name: "products", tab: "Products", chart: /^Revenue of the 10 best sellers$/ },
  { name: "deliveries", tab: "Deliveries", chart: /^Returns to sender by (day|week|month)$/ },
  { name: "confirmation", tab: "Confirmation", chart: /^Orders confirmed by (day|week|month)$/ },
  { name: "payments", tab: "Payments and discounts", chart: /^Revenue per payment method$/ },
  { name: "stock", tab: "Stock", chart: /^Days of cover of the products running out$/ },
] as const;

type Figures = Record<string, number | null>;

/** A report's figures from the API, for the days the page shows. */
async function apiReport(request: APIRequestContext, token: string, name: string, from: string, to: string) {
  const response = await request.get(`/api/v1/reports/${name}?from=${from}&to=${to}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).data as { totals: Figures; series: Record<string, string | number | null>[] };
}

/** An API answer's envelope, for a paged report. */
async function request(api: APIRequestContext, token: string, path: string) {
  const response = await api.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    data: { series: { name: string }[] };
    pagination: { page: number; limit: number; total: number };
  };
}

/** The figure a report's page shows first among its totals, as the page writes it. */
function firstTotal(name: string, totals: Figures): [string, string] {
  const count = (value: number | null) => (value ?? 0).toLocaleString("en-PK");
  switch (name) {
    case "sales":
      return ["Revenue", formatRupees(totals.revenue!)];
    case "products":
      return ["Units sold", count(totals.units!)];
    case "deliveries":
      return ["Delivered", count(totals.delivered!)];
    case "confirmation":
      return ["Asked", count(totals.asked!)];
    case "payments":
      return ["Revenue", formatRupees(totals.revenue!)];
    default:
      return ["At or below reorder level", count(totals.lowStock!)];
  }
}

/** The period the page covers, from its form (the days it shows). */
async function shownPeriod(page: Page) {
  return {
    from: await page.getByLabel("From", { exact: true }).inputValue(),
    to: await page.getByLabel("To", { exact: true }).inputValue(),
  };
}

async function seesReport(page: Page, request: APIRequestContext, token: string, report: (typeof REPORTS)[number]) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Reports: ${report.tab}`);
  await expect(page.locator(".report-chart figcaption")).toHaveText(report.chart);
  const { from, to } = await shownPeriod(page);
  const figures = await apiReport(request, token, report.name, from, to);
  const [label, value] = firstTotal(report.name, figures.totals);
  const figure = page.locator(".report-totals .figure").filter({ has: page.getByText(label, { exact: true }) });
  await expect(figure.locator(".figure__value")).toHaveText(value);
  // The table below the chart: as many rows as the API's series (sales by day: one a day).
  const rows = figures.series.length;
  if (rows > 0) await expect(page.locator("table.admin-table").first().locator("tbody tr")).toHaveCount(rows);
}

test.describe("reports", () => {
  test("an admin reads every report, picks a preset and a custom range, and downloads a CSV", async ({
    page,
  }, testInfo) => {
    // Six reports, two ranges and a download, each page rendered from the database.
    test.setTimeout(180_000);
    const js = testInfo.project.name === "js";
    // An order today, so that the reports have something of this test's run to show.
    const customer = await registerCustomer(page.request, `reports.${testInfo.project.name}`);
    const [product, another] = await productsInStock(page.request, 2);
    await placeOrder(page.request, customer, product!._id);
    // A second product sold, so that the products' list has a second page at one a page.
    await placeOrder(page.request, customer, another!._id);
    const token = await adminToken(page.request);

    await logIn(page, ADMIN);
    await page.goto("/admin/reports");
    if (js) await waitForHydration(page);
    await seesReport(page, page.request, token, REPORTS[0]);
    // The sales table's orders of today include the one just placed.
    await expect(page.locator("table.admin-table tbody tr").last().locator("td").nth(1)).not.toHaveText("0");

    for (const report of REPORTS.slice(1)) {
      await page.getByRole("navigation", { name: "Reports" }).getByRole("link", { name: report.tab }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/reports/${report.name}\\?from=`));
      await seesReport(page, page.request, token, report);
    }

    // The products sold, a page at a time (one a page here): plain Next and Previous links.
    await page.goto("/admin/reports/products?limit=1");
    if (js) await waitForHydration(page);
    const days = await shownPeriod(page);
    const bestSellers = page.locator("table.admin-table").first().locator("tbody tr");
    const pageTwo = await request(
      page.request,
      token,
      `/api/v1/reports/products?from=${days.from}&to=${days.to}&limit=1&page=2`,
    );
    await expect(page.locator(".report-list-count")).toHaveText(`1 to 1 of ${pageTwo.pagination.total} products sold`);
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/limit=1&page=2$/);
    await expect(page.locator(".report-list-count")).toHaveText(`2 to 2 of ${pageTwo.pagination.total} products sold`);
    await expect(bestSellers).toHaveCount(1);
    await expect(bestSellers.first().locator("td").first()).toHaveText(pageTwo.data.series[0].name);
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Previous" }).click();
    await expect(page.locator(".report-list-count")).toHaveText(`1 to 1 of ${pageTwo.pagination.total} products sold`);

    // A preset: the last 7 days, today included.
    await page.getByRole("navigation", { name: "Reports" }).getByRole("link", { name: "Sales" }).click();
    // With JavaScript the tab is a client navigation: the Products page's own "Last 7 days" link
    // is there until it lands (seen clicked on a loaded machine).
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports: Sales");
    await page.getByRole("link", { name: "Last 7 days" }).click();
    await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "true");
    await seesReport(page, page.request, token, REPORTS[0]);
    await expect(page.locator("table.admin-table").first().locator("tbody tr")).toHaveCount(7);

    // A custom range through the GET form, grouped by week.
    await page.getByLabel("From", { exact: true }).fill("2026-10-01");
    await page.getByLabel("To", { exact: true }).fill("2026-10-31");
    await page.getByLabel("Group by").selectOption("week");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/from=2026-10-01&to=2026-10-31&by=week/);
    await expect(page.locator(".report-covers")).toContainText("1 Oct 2026 to 31 Oct 2026");
    await expect(page.locator(".report-chart figcaption")).toHaveText("Revenue by week");
    // Weeks from Monday: 28 Sep, 5, 12, 19 and 26 Oct.
    await expect(page.locator("table.admin-table").first().locator("tbody tr")).toHaveCount(5);

    // A backwards range comes back beside its field, with what was typed.
    await page.getByLabel("From", { exact: true }).fill("2026-10-31");
    await page.getByLabel("To", { exact: true }).fill("2026-10-01");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByText("To must be on or after From")).toBeVisible();
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("2026-10-31");

    // The CSV of a report for the days shown.
    await page.goto("/admin/reports/payments?from=2026-10-01&to=2026-10-31");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("report-payments-2026-10-01-to-2026-10-31.csv");
    const csv = fs.readFileSync((await download.path())!, "utf8");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const figures = await apiReport(page.request, token, "payments", "2026-10-01", "2026-10-31");
    const lines = csv.slice(1).trimEnd().split("\r\n");
    expect(lines.length).toBeGreaterThanOrEqual(figures.series.length + 1);
  });

  test("axe finds no serious or critical violation on any report page", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "axe runs in the page: JavaScript on only");
    // Six pages, each audited in full: a few seconds each on a busy machine.
    test.setTimeout(180_000);
    await logIn(page, ADMIN);
    await page.goto("/admin/reports");
    const findings: string[] = [];
    for (const report of REPORTS) {
      await page.goto(`/admin/reports/${report.name}`);
      await waitForHydration(page);
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        if (violation.impact === "serious" || violation.impact === "critical") {
          findings.push(
            `${report.name}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`,
          );
        }
      }
    }
    expect(findings).toEqual([]);
  });
});
