import { data, Form, Link, NavLink } from "react-router";
import {
  GROUPINGS,
  PERIOD_PRESETS,
  PRESET_LABELS,
  REPORT_NAMES,
  REPORT_PAGE_SIZE_MAX,
  isReportName,
  presetOf,
  presetPeriod,
  type ReportName,
} from "../../server/modules/reports/report-period.shared";
import type { Reports } from "../../server/modules/reports/reports.service";
import { InvalidInputError } from "../../server/modules/shared/errors.shared";
import { formatStoreDate } from "../../server/modules/shared/store-dates.shared";
import { requestContext } from "../context";
import { Field, FormError } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/reports";
import { ConfirmationView, DeliveriesView, PaymentsView, ProductsView, SalesView, StockView } from "./report-views";

export const REPORT_TITLES: Record<ReportName, string> = {
  sales: "Sales",
  products: "Products",
  deliveries: "Deliveries",
  confirmation: "Confirmation",
  payments: "Payments and discounts",
  stock: "Stock",
};

/**
 * /admin/reports (the sales report) and /admin/reports/{name} (docs/product.md, "Reports"): a
 * period chosen with a plain GET form or a preset's link, the report's figures as a chart and a
 * table, and its CSV. Bad dates come back beside their fields with what was typed, status 400.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const name = params.name ?? "sales";
  if (!isReportName(name)) throw data("Report not found", { status: 404 });
  const { services } = context.get(requestContext);
  const search = new URL(request.url).searchParams;
  const values = { from: search.get("from") ?? "", to: search.get("to") ?? "", by: search.get("by") ?? "" };
  const now = new Date();
  try {
    // The products' list of the products and deliveries reports, a page at a time.
    const report = await services.reports.report(name, {
      ...values,
      page: pageFromUrl(search),
      limit: listLimit(search),
    });
    return {
      name,
      values,
      limit: listLimit(search),
      report,
      preset: presetOf(report.period, now),
      presets: PERIOD_PRESETS.map((preset) => ({ preset, ...presetPeriod(preset, now) })),
      errors: {} as Record<string, string>,
    };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return data(
      {
        name,
        values,
        limit: listLimit(search),
        report: null,
        preset: null,
        presets: PERIOD_PRESETS.map((preset) => ({ preset, ...presetPeriod(preset, now) })),
        errors: error.fieldErrors,
      },
      { status: 400 },
    );
  }
}

/**
 * The rows a page of a report's list shows when the address asks (`limit`, 1 to 200, as the API
 * takes it); anything else is the default (a page forgives what the API refuses).
 */
function listLimit(search: URLSearchParams): number | undefined {
  const limit = Number(search.get("limit") ?? "");
  return Number.isInteger(limit) && limit >= 1 && limit <= REPORT_PAGE_SIZE_MAX ? limit : undefined;
}

export const meta: Route.MetaFunction = routeMeta({ title: "Reports", path: "/admin/reports", noindex: true });

function ReportFigures({
  name,
  report,
  pageHref,
}: {
  name: ReportName;
  report: Reports[ReportName];
  pageHref: (page: number) => string;
}) {
  switch (name) {
    case "sales":
      return <SalesView report={report as Reports["sales"]} />;
    case "products":
      return <ProductsView report={report as Reports["products"]} pageHref={pageHref} />;
    case "deliveries":
      return <DeliveriesView report={report as Reports["deliveries"]} pageHref={pageHref} />;
    case "confirmation":
      return <ConfirmationView report={report as Reports["confirmation"]} />;
    case "payments":
      return <PaymentsView report={report as Reports["payments"]} />;
    case "stock":
      return <StockView report={report as Reports["stock"]} />;
  }
}

export default function ReportsPage({ loaderData }: Route.ComponentProps) {
  const { name, values, limit, report, preset, presets, errors } = loaderData;
  const query = (period: { from: string; to: string }) => `from=${period.from}&to=${period.to}`;
  const current = report ? query(report.period) : "";
  const pageHref = (page: number) =>
    `/admin/reports/${name}?${current}${values.by ? `&by=${values.by}` : ""}${limit ? `&limit=${limit}` : ""}${page > 1 ? `&page=${page}` : ""}`;
  return (
    <section className="reports">
      <h1>{`Reports: ${REPORT_TITLES[name]}`}</h1>
      <nav aria-label="Reports" className="report-tabs">
        <ul>
          {REPORT_NAMES.map((reportName) => (
            <li key={reportName}>
              <NavLink
                to={`/admin/reports/${reportName}${current ? `?${current}` : ""}`}
                className={reportName === name ? "active" : undefined}
                aria-current={reportName === name ? "page" : undefined}
              >
                {REPORT_TITLES[reportName]}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="card report-period" aria-labelledby="report-period">
        <h2 id="report-period">Period</h2>
        <ul className="report-presets">
          {presets.map((choice) => (
            <li key={choice.preset}>
              <Link
                to={`/admin/reports/${name}?${query(choice)}`}
                aria-current={preset === choice.preset ? "true" : undefined}
              >
                {PRESET_LABELS[choice.preset]}
              </Link>
            </li>
          ))}
        </ul>
        <FormError message={Object.keys(errors).length > 0 ? "Check the dates below." : undefined} />
        <Form method="get" className="report-period__form">
          <Field
            name="from"
            label="From"
            type="date"
            defaultValue={values.from || report?.period.from}
            error={errors.from}
          />
          <Field name="to" label="To" type="date" defaultValue={values.to || report?.period.to} error={errors.to} />
          <Field name="by" label="Group by" error={errors.by}>
            <select id="field-by" name="by" defaultValue={values.by}>
              <option value="">Best for the period</option>
              {GROUPINGS.map((grouping) => (
                <option key={grouping} value={grouping}>
                  {grouping[0]!.toUpperCase() + grouping.slice(1)}
                </option>
              ))}
            </select>
          </Field>
          <div className="actions">
            <button type="submit" className="button">
              Show
            </button>
          </div>
        </Form>
      </section>
      {report ? (
        <>
          <p className="report-covers">
            {`${formatStoreDate(`${report.period.from}T12:00:00Z`)} to ${formatStoreDate(`${report.period.to}T12:00:00Z`)}, against ${formatStoreDate(`${report.previousPeriod.from}T12:00:00Z`)} to ${formatStoreDate(`${report.previousPeriod.to}T12:00:00Z`)}.`}{" "}
            <a href={`/admin/reports/${name}/export.csv?${current}${values.by ? `&by=${values.by}` : ""}`} download>
              Download CSV
            </a>
          </p>
          <ReportFigures name={name} report={report} pageHref={pageHref} />
        </>
      ) : null}
    </section>
  );
}
