import { defineApiRoute, type ApiRoute } from "../api-route";
import { REPORT_NAMES } from "../../modules/reports/report-period.shared";
import { isPagedReport, pagedReportSchema, reportPeriodSchema } from "../../modules/reports/report-sql";
import { REPORT_SHAPES } from "../../modules/reports/report.shapes";
import { paginationShape } from "../../modules/shared/list-query";

const SUMMARIES = {
  sales: "Orders, revenue and average order value by day, week or month; collected and still to collect",
  products: "Units and revenue per product (a page of best sellers) and per brand; the slowest movers",
  deliveries:
    "Delivered, returned to sender, cancelled and open, per day, city, courier and product (a page of products); the return-to-sender rate and its shipping cost",
  confirmation: "Confirmed, cancelled by the customer and not answered; the median time to confirm",
  payments:
    "Orders and revenue per payment method; each discount code's uses and amount given; returns and refunds by reason",
  stock:
    "Products at or below their reorder level with days of cover at the last 30 days' sales; out of stock with waiting alerts",
} as const;

/**
 * /api/v1/reports/{name} (docs/api.md, "Reports"): the figures of the admin's report pages, for
 * the days `from` to `to` (YYYY-MM-DD in Pakistan, both included; neither: the last 30 days),
 * compared with as many days before. The products and deliveries reports list their products a
 * page at a time (`page`, `limit` up to 200), with `pagination` beside `data` as every list has.
 * Bad dates or a bad page: 400.
 */
export const reportsApiRoutes: ApiRoute[] = REPORT_NAMES.map((name) => {
  const common = {
    method: "get",
    path: `/reports/${name}`,
    tag: "Reports",
    summary: `${SUMMARIES[name]}, for the days from–to in Pakistan, compared with as many days before`,
    access: "admin",
    responseData: REPORT_SHAPES[name],
  } as const;
  if (isPagedReport(name)) {
    return defineApiRoute({
      ...common,
      query: pagedReportSchema,
      responseExtras: { pagination: paginationShape },
      handler: async ({ services, query }) => {
        const { pagination, ...report } = await services.reports.report(name, query);
        return { message: "OK", data: report, pagination };
      },
    });
  }
  return defineApiRoute({
    ...common,
    query: reportPeriodSchema,
    handler: async ({ services, query }) => ({ message: "OK", data: await services.reports.report(name, query) }),
  });
});
