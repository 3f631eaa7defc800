import type { ComponentProps, ReactNode } from "react";
import type { Reports } from "../../server/modules/reports/reports.service";
import { formatStoreDate } from "../../server/modules/shared/store-dates.shared";
import type { Pagination } from "../../server/modules/shared/list-query";
import { PreviousNextPages } from "../lib/list-pages";
import { formatRupees } from "../lib/money";
import { AdminTable, type AdminTableProps, type ListColumn } from "./admin-list";
import { ReportChart } from "./report-chart";

/**
 * Each report's figures on its page (docs/product.md, "Reports"): the totals against the period
 * before, a chart, and below it a table of the same numbers.
 */

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const count = (value: number) => value.toLocaleString("en-PK");
/** "31 Oct 2026" for a series' YYYY-MM-DD (noon UTC is the same day in Pakistan). */
const dayOf = (date: string) => formatStoreDate(`${date}T12:00:00Z`);
const groupLabel = (by: string) => (by === "day" ? "Day" : by === "week" ? "Week starting" : "Month starting");

function Totals({ items }: { items: { label: string; value: string; before: string | null }[] }) {
  return (
    <ul className="figures report-totals">
      {items.map((item) => (
        <li key={item.label} className="card figure">
          <span className="figure__label">{item.label}</span>
          <span className="figure__value">{item.value}</span>
          {item.before !== null ? <span className="figure__note">{`Period before: ${item.before}`}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section report-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

type ChartProps = Omit<ComponentProps<typeof ReportChart>, "points">;

/**
 * A report's chart with, below it, the table of the same numbers (docs/product.md, "Reports":
 * the chart is read faster, the table keeps every figure). The chart draws `value` of each row of
 * `charted` (the table's rows unless a report charts only some of them, such as its ten best).
 */
export function ChartWithTable<Row>({
  chart,
  label,
  value,
  charted,
  ...table
}: AdminTableProps<Row> & {
  chart: ChartProps;
  label: (row: Row) => string;
  value: (row: Row) => number;
  charted?: readonly Row[];
}) {
  const points = (charted ?? table.rows).map((row) => ({ label: label(row), value: value(row) }));
  return (
    <>
      <ReportChart {...chart} points={points} />
      <AdminTable {...table} />
    </>
  );
}

/** The first column of a report by day, week or month: the group's first day. */
function periodColumn<Row extends { period: string }>(by: string): ListColumn<Row> {
  return { header: groupLabel(by), title: true, cell: (point) => dayOf(point.period) };
}

/** A report's series of days as chart-and-table props: each group is labelled by its first day. */
const bySeries = <Row extends { period: string }>(series: readonly Row[]) => ({
  rows: series,
  rowKey: (point: Row) => point.period,
  label: (point: Row) => dayOf(point.period),
  empty: "No days in this period.",
});

/**
 * Which rows of a paged list the table shows, and links to the pages before and after: plain
 * links, so paging needs no script.
 */
function ListPages({
  pagination,
  what,
  href,
}: {
  pagination: Pagination;
  what: string;
  href: (page: number) => string;
}) {
  const { page, limit, total, totalPages } = pagination;
  const first = (page - 1) * limit + 1;
  const last = Math.min(page * limit, total);
  return (
    <>
      {total > 0 ? (
        <p className="report-list-count">
          {first <= total ? `${count(first)} to ${count(last)} of ${count(total)} ${what}` : `${count(total)} ${what}`}
        </p>
      ) : null}
      <PreviousNextPages page={page} totalPages={totalPages} href={href} />
    </>
  );
}

export function SalesView({ report }: { report: Reports["sales"] }) {
  const { totals, previous, series, by } = report;
  return (
    <>
      <Totals
        items={[
          { label: "Orders", value: count(totals.orders), before: count(previous.orders) },
          { label: "Revenue", value: formatRupees(totals.revenue), before: formatRupees(previous.revenue) },
          {
            label: "Average order value",
            value: formatRupees(totals.averageOrderValue),
            before: formatRupees(previous.averageOrderValue),
          },
          { label: "Collected", value: formatRupees(totals.collected), before: formatRupees(previous.collected) },
          { label: "To collect", value: formatRupees(totals.toCollect), before: formatRupees(previous.toCollect) },
        ]}
      />
      <ChartWithTable
        chart={{
          kind: "line",
          money: true,
          title: `Revenue by ${by}`,
          description: `Revenue of the orders placed each ${by}, from ${dayOf(report.period.from)} to ${dayOf(report.period.to)}: ${formatRupees(totals.revenue)} in all.`,
          xLabel: groupLabel(by),
          yLabel: "Revenue (Rs.)",
        }}
        {...bySeries(series)}
        value={(point) => point.revenue}
        columns={[
          periodColumn(by),
          { header: "Orders", cell: (point) => count(point.orders) },
          { header: "Revenue", cell: (point) => formatRupees(point.revenue) },
          { header: "Average order value", cell: (point) => formatRupees(point.averageOrderValue) },
          { header: "Collected", cell: (point) => formatRupees(point.collected) },
          { header: "To collect", cell: (point) => formatRupees(point.toCollect) },
          {
            header: "Cancelled",
            cell: (point) => `${count(point.cancelledOrders)} (${formatRupees(point.cancelled)})`,
          },
        ]}
      />
    </>
  );
}

export function ProductsView({
  report,
  pageHref,
}: {
  report: Reports["products"];
  pageHref: (page: number) => string;
}) {
  const { totals, previous, series, pagination } = report;
  const charted = series.slice(0, 10);
  const firstPlace = (pagination.page - 1) * pagination.limit + 1;
  const chartTitle =
    firstPlace === 1
      ? "Revenue of the 10 best sellers"
      : `Revenue of best sellers ${count(firstPlace)} to ${count(firstPlace + charted.length - 1)}`;
  return (
    <>
      <Totals
        items={[
          { label: "Units sold", value: count(totals.units), before: count(previous.units) },
          { label: "Revenue", value: formatRupees(totals.revenue), before: formatRupees(previous.revenue) },
          { label: "Products sold", value: count(totals.productsSold), before: count(previous.productsSold) },
        ]}
      />
      <ChartWithTable
        chart={{
          kind: "bar",
          money: true,
          title: chartTitle,
          description: `The products that brought the most revenue in the period, before discounts: ${charted
            .map((sold) => `${sold.name} ${formatRupees(sold.revenue)}`)
            .join("; ")}.`,
          xLabel: "Product",
          yLabel: "Revenue (Rs.)",
        }}
        rows={series}
        charted={charted}
        label={(sold) => sold.name}
        value={(sold) => sold.revenue}
        rowKey={(sold) => sold.productId ?? `deleted:${sold.name}`}
        empty="Nothing was sold in this period."
        columns={[
          { header: "Product", title: true, cell: (sold) => sold.name },
          { header: "Brand", cell: (sold) => sold.brand || "–" },
          { header: "Units", cell: (sold) => count(sold.units) },
          { header: "Revenue", cell: (sold) => formatRupees(sold.revenue) },
        ]}
      />
      <ListPages pagination={pagination} what="products sold" href={pageHref} />
      <Section title="Per brand">
        <AdminTable
          rows={report.brands}
          rowKey={(brand) => brand.brand}
          empty="Nothing was sold in this period."
          columns={[
            { header: "Brand", title: true, cell: (brand) => brand.brand || "No brand" },
            { header: "Units", cell: (brand) => count(brand.units) },
            { header: "Revenue", cell: (brand) => formatRupees(brand.revenue) },
          ]}
        />
      </Section>
      <Section title="Slowest movers">
        <AdminTable
          rows={report.slowestMovers}
          rowKey={(product) => product.productId}
          empty="The catalogue is empty."
          columns={[
            { header: "Product", title: true, cell: (product) => product.name },
            { header: "Units sold", cell: (product) => count(product.units) },
            { header: "In stock", cell: (product) => count(product.stock) },
          ]}
        />
      </Section>
    </>
  );
}

const outcomeColumns = <
  Row extends { orders: number; delivered: number; returned: number; cancelled: number; open: number },
>() => [
  { header: "Orders", cell: (row: Row) => count(row.orders) },
  { header: "Delivered", cell: (row: Row) => count(row.delivered) },
  { header: "Returned to sender", cell: (row: Row) => count(row.returned) },
  { header: "Cancelled", cell: (row: Row) => count(row.cancelled) },
  { header: "Open", cell: (row: Row) => count(row.open) },
];

export function DeliveriesView({
  report,
  pageHref,
}: {
  report: Reports["deliveries"];
  pageHref: (page: number) => string;
}) {
  const { totals, previous, series, by } = report;
  const groups: [string, string, Reports["deliveries"]["byCity"]][] = [
    ["Per city", "City", report.byCity],
    ["Per courier", "Courier", report.byCourier],
    ["Per product", "Product", report.byProduct],
  ];
  return (
    <>
      <Totals
        items={[
          { label: "Delivered", value: count(totals.delivered), before: count(previous.delivered) },
          { label: "Returned to sender", value: count(totals.returned), before: count(previous.returned) },
          { label: "Return-to-sender rate", value: percent(totals.returnRate), before: percent(previous.returnRate) },
          {
            label: "Shipping lost on returns",
            value:
              totals.returnShippingCost === null ? "Set the shipping cost" : formatRupees(totals.returnShippingCost),
            before: previous.returnShippingCost === null ? null : formatRupees(previous.returnShippingCost),
          },
          { label: "Cancelled", value: count(totals.cancelled), before: count(previous.cancelled) },
          { label: "Open", value: count(totals.open), before: count(previous.open) },
        ]}
      />
      {report.shippingCostEachWay === null ? (
        <p>
          The shipping lost on returns needs the average cost of a parcel each way:{" "}
          <a href="/admin/settings/orders">set it in Order Settings</a>.
        </p>
      ) : null}
      <ChartWithTable
        chart={{
          kind: "bar",
          money: false,
          title: `Returns to sender by ${by}`,
          description: `Parcels returned to sender among the orders placed each ${by}: ${count(totals.returned)} in all, ${percent(totals.returnRate)} of the parcels that reached the door.`,
          xLabel: groupLabel(by),
          yLabel: "Returned to sender",
        }}
        {...bySeries(series)}
        value={(point) => point.returned}
        columns={[periodColumn(by), ...outcomeColumns<(typeof series)[number]>()]}
      />
      {groups.map(([title, header, rows]) => (
        <Section key={title} title={title}>
          <AdminTable
            rows={rows}
            rowKey={(row) => row.name}
            empty="No orders in this period."
            columns={[
              { header, title: true, cell: (row) => row.name },
              ...outcomeColumns<(typeof rows)[number]>(),
              { header: "Return-to-sender rate", cell: (row) => percent(row.returnRate) },
            ]}
          />
          {rows === report.byProduct ? (
            <ListPages pagination={report.pagination} what="products" href={pageHref} />
          ) : null}
        </Section>
      ))}
    </>
  );
}

export function ConfirmationView({ report }: { report: Reports["confirmation"] }) {
  const { totals, previous, series, by } = report;
  const minutes = (value: number | null) => (value === null ? "–" : `${value} min`);
  return (
    <>
      <Totals
        items={[
          { label: "Asked", value: count(totals.asked), before: count(previous.asked) },
          { label: "Confirmed", value: count(totals.confirmed), before: count(previous.confirmed) },
          {
            label: "Confirmation rate",
            value: percent(totals.confirmationRate),
            before: percent(previous.confirmationRate),
          },
          {
            label: "Cancelled by the customer",
            value: count(totals.cancelledByCustomer),
            before: count(previous.cancelledByCustomer),
          },
          { label: "Not answered", value: count(totals.notAnswered), before: count(previous.notAnswered) },
          {
            label: "Median time to confirm",
            value: minutes(totals.medianMinutesToConfirm),
            before: minutes(previous.medianMinutesToConfirm),
          },
        ]}
      />
      <ChartWithTable
        chart={{
          kind: "bar",
          money: false,
          title: `Orders confirmed by ${by}`,
          description: `Orders confirmed among those placed each ${by}: ${count(totals.confirmed)} of ${count(totals.asked)} asked.`,
          xLabel: groupLabel(by),
          yLabel: "Orders confirmed",
        }}
        {...bySeries(series)}
        value={(point) => point.confirmed}
        columns={[
          periodColumn(by),
          { header: "Asked", cell: (point) => count(point.asked) },
          { header: "Confirmed", cell: (point) => count(point.confirmed) },
          { header: "Cancelled by the customer", cell: (point) => count(point.cancelledByCustomer) },
          { header: "Not answered", cell: (point) => count(point.notAnswered) },
          { header: "Rate", cell: (point) => percent(point.confirmationRate) },
        ]}
      />
    </>
  );
}

export function PaymentsView({ report }: { report: Reports["payments"] }) {
  const { totals, previous, series } = report;
  return (
    <>
      <Totals
        items={[
          { label: "Revenue", value: formatRupees(totals.revenue), before: formatRupees(previous.revenue) },
          { label: "Discount uses", value: count(totals.discountUses), before: count(previous.discountUses) },
          { label: "Given away", value: formatRupees(totals.amountGiven), before: formatRupees(previous.amountGiven) },
          { label: "Refunded", value: formatRupees(totals.refunded), before: formatRupees(previous.refunded) },
        ]}
      />
      <ChartWithTable
        chart={{
          kind: "bar",
          money: true,
          title: "Revenue per payment method",
          description: series.map((method) => `${method.label}: ${formatRupees(method.revenue)}`).join("; "),
          xLabel: "Payment method",
          yLabel: "Revenue (Rs.)",
        }}
        rows={series}
        label={(method) => method.label}
        value={(method) => method.revenue}
        rowKey={(method) => method.method}
        empty="No payment method."
        columns={[
          { header: "Payment method", title: true, cell: (method) => method.label },
          { header: "Orders", cell: (method) => count(method.orders) },
          { header: "Revenue", cell: (method) => formatRupees(method.revenue) },
        ]}
      />
      <Section title="Discount codes">
        <AdminTable
          rows={report.discountCodes}
          rowKey={(code) => code.code}
          empty="No code was used in this period."
          columns={[
            { header: "Code", title: true, cell: (code) => code.code },
            { header: "Uses", cell: (code) => count(code.uses) },
            { header: "Given away", cell: (code) => formatRupees(code.amountGiven) },
          ]}
        />
      </Section>
      <Section title="Returns and refunds">
        <AdminTable
          rows={report.returnReasons}
          rowKey={(reason) => reason.reason}
          empty="No return was asked for in this period."
          columns={[
            { header: "Reason", title: true, cell: (reason) => reason.reason },
            { header: "Returns", cell: (reason) => count(reason.returns) },
            { header: "Received", cell: (reason) => count(reason.received) },
            { header: "Refunded", cell: (reason) => formatRupees(reason.refunded) },
          ]}
        />
      </Section>
    </>
  );
}

export function StockView({ report }: { report: Reports["stock"] }) {
  const { totals, series } = report;
  const chartRows = series.filter((product) => product.daysOfCover !== null).slice(0, 10);
  return (
    <>
      <Totals
        items={[
          { label: "At or below reorder level", value: count(totals.lowStock), before: null },
          { label: "Out of stock", value: count(totals.outOfStock), before: null },
          { label: "Customers waiting", value: count(totals.waitingAlerts), before: null },
        ]}
      />
      <p>{`Days of cover at the sales of ${dayOf(report.salesWindow.from)} to ${dayOf(report.salesWindow.to)}. Stock is as it is now.`}</p>
      <ChartWithTable
        chart={{
          kind: "bar",
          money: false,
          title: "Days of cover of the products running out",
          description: chartRows.map((product) => `${product.name}: ${product.daysOfCover} days`).join("; ") || "None",
          xLabel: "Product",
          yLabel: "Days of cover",
        }}
        rows={series}
        charted={chartRows}
        label={(product) => product.name}
        value={(product) => product.daysOfCover ?? 0}
        rowKey={(product) => product.productId}
        empty="No product is at or below its reorder level."
        columns={[
          { header: "Product", title: true, cell: (product) => product.name },
          { header: "In stock", cell: (product) => count(product.stock) },
          { header: "Reorder level", cell: (product) => count(product.reorderLevel) },
          { header: "Sold in 30 days", cell: (product) => count(product.unitsSold) },
          {
            header: "Days of cover",
            cell: (product) => (product.daysOfCover === null ? "No sales" : String(product.daysOfCover)),
          },
          { header: "Waiting for it", cell: (product) => count(product.waitingAlerts) },
        ]}
      />
    </>
  );
}
