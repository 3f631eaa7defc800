import { csvTable as csvOf } from "../orders/orders-csv";
import type { ReportName } from "./report-period.shared";
import type { Reports } from "./report-kinds";

/**
 * A report as a CSV download (docs/product.md, "Reports"): its table, the one below its chart,
 * written with the orders export's rules (server/modules/orders/orders-csv.ts, csvTable: RFC 4180, a byte
 * order mark for Excel, and a cell a spreadsheet would run as a formula made inert, which a
 * product, brand or city name typed as `=…` would otherwise be). Money in rupees as numbers.
 */
export function reportCsv<Name extends ReportName>(name: Name, report: Reports[Name]): string {
  const figures = report as Reports[ReportName];
  switch (name) {
    case "sales": {
      const { series } = figures as Reports["sales"];
      return csvOf<(typeof series)[number]>(
        [
          ["Period", (row) => row.period],
          ["Orders", (row) => row.orders],
          ["Revenue", (row) => row.revenue],
          ["Average order value", (row) => row.averageOrderValue],
          ["Collected", (row) => row.collected],
          ["To collect", (row) => row.toCollect],
          ["Cancelled orders", (row) => row.cancelledOrders],
          ["Cancelled amount", (row) => row.cancelled],
        ],
        series,
      );
    }
    case "products": {
      const { series } = figures as Reports["products"];
      return csvOf<(typeof series)[number]>(
        [
          ["Product", (row) => row.name],
          ["Brand", (row) => row.brand],
          ["Units", (row) => row.units],
          ["Revenue", (row) => row.revenue],
        ],
        series,
      );
    }
    case "deliveries": {
      const { byCity, byCourier, byProduct } = figures as Reports["deliveries"];
      type Group = (typeof byCity)[number] & { groupKind: string };
      return csvOf<Group>(
        [
          ["Group", (row) => row.groupKind],
          ["Name", (row) => row.name],
          ["Orders", (row) => row.orders],
          ["Delivered", (row) => row.delivered],
          ["Returned to sender", (row) => row.returned],
          ["Cancelled", (row) => row.cancelled],
          ["Open", (row) => row.open],
          ["Return-to-sender rate", (row) => row.returnRate],
        ],
        [
          ...byCity.map((row) => ({ ...row, groupKind: "City" })),
          ...byCourier.map((row) => ({ ...row, groupKind: "Courier" })),
          ...byProduct.map((row) => ({ ...row, groupKind: "Product" })),
        ],
      );
    }
    case "confirmation": {
      const { series } = figures as Reports["confirmation"];
      return csvOf<(typeof series)[number]>(
        [
          ["Period", (row) => row.period],
          ["Asked", (row) => row.asked],
          ["Confirmed", (row) => row.confirmed],
          ["Cancelled by customer", (row) => row.cancelledByCustomer],
          ["Not answered", (row) => row.notAnswered],
          ["Confirmation rate", (row) => row.confirmationRate],
        ],
        series,
      );
    }
    case "payments": {
      const { series, discountCodes } = figures as Reports["payments"];
      type Line = { kind: string; name: string; count: number; amount: number };
      return csvOf<Line>(
        [
          ["Kind", (row) => row.kind],
          ["Name", (row) => row.name],
          ["Orders or uses", (row) => row.count],
          ["Revenue or amount given", (row) => row.amount],
        ],
        [
          ...series.map((row) => ({ kind: "Payment method", name: row.label, count: row.orders, amount: row.revenue })),
          ...discountCodes.map((row) => ({
            kind: "Discount code",
            name: row.code,
            count: row.uses,
            amount: row.amountGiven,
          })),
        ],
      );
    }
    case "stock": {
      const { series } = figures as Reports["stock"];
      return csvOf<(typeof series)[number]>(
        [
          ["Product", (row) => row.name],
          ["Brand", (row) => row.brand],
          ["Stock", (row) => row.stock],
          ["Reorder level", (row) => row.reorderLevel],
          ["Units sold in 30 days", (row) => row.unitsSold],
          ["Days of cover", (row) => row.daysOfCover],
          ["Waiting alerts", (row) => row.waitingAlerts],
        ],
        series,
      );
    }
  }
  throw new Error(`No CSV for report ${name}`);
}
