import { arrayOf, described, integer, nullable, number, object, oneOf, text, type Shape } from "../shared/shapes";
import { GROUPINGS, type ReportName } from "./report-period.shared";

/**
 * The reports as GET /api/v1/reports/{name} answers them (docs/api.md, "Reports"): each with
 * `series` (what its chart draws), `totals` over the period and `previous`, the same totals over
 * as many days before it. Money in rupees; a rate is a share from 0 to 1.
 */

const day = (description: string) => text({ format: "date", description });
const count = (description?: string) => integer(description ? { minimum: 0, description } : { minimum: 0 });
const rupees = (description?: string) => number(description ? { description } : {});
const share = (description: string) => number({ minimum: 0, maximum: 1, description });

const covering = {
  period: described(object({ from: day("First day"), to: day("Last day") }), "The days counted, in Pakistan"),
  previousPeriod: described(
    object({ from: day("First day"), to: day("Last day") }),
    "As many days, just before: `previous` counts them",
  ),
};
const grouping = described(oneOf(GROUPINGS), "How the series groups the days");
const pointStart = day("The group's first day (a week starts on Monday)");

const salesFigureProperties = {
  orders: count("Orders placed and not cancelled"),
  revenue: rupees("Their totals, less refunds paid: collected and to collect"),
  averageOrderValue: rupees("Revenue per order, to the paisa"),
  collected: rupees("Delivered cash-on-delivery orders and verified advance payments, less refunds"),
  toCollect: rupees("Orders Pending or Shipped"),
  cancelledOrders: count(),
  cancelled: rupees("The cancelled orders' totals, outside the revenue"),
};
const salesFigures = object(salesFigureProperties);

const salesShape = object({
  series: arrayOf(object({ period: pointStart, ...salesFigureProperties })),
  totals: salesFigures,
  previous: salesFigures,
  by: grouping,
  ...covering,
});

const productsTotals = object({ units: count(), revenue: rupees(), productsSold: count() });
const productsShape = object({
  series: described(
    arrayOf(
      object({
        productId: nullable(text({ format: "uuid" })),
        name: text(),
        brand: text(),
        units: count(),
        revenue: rupees("Units at the price sold, before the order's discount"),
      }),
    ),
    "A page of the products sold (`page`, `limit`: `pagination` beside `data` counts them all), best sellers first; a product deleted since has a null id",
  ),
  brands: arrayOf(object({ brand: text(), units: count(), revenue: rupees() })),
  slowestMovers: described(
    arrayOf(
      object({ productId: text({ format: "uuid" }), name: text(), brand: text(), stock: count(), units: count() }),
    ),
    "The 10 products of the catalogue that sold fewest units (0 included)",
  ),
  totals: productsTotals,
  previous: productsTotals,
  ...covering,
});

const outcomes = {
  orders: count(),
  delivered: count(),
  returned: count("Returned to sender"),
  cancelled: count("Cancelled any other way"),
  open: count("Pending or Shipped"),
};
const outcomeGroup = object({ name: text(), ...outcomes, returnRate: share("Returned among delivered and returned") });
const deliveriesTotals = object({
  ...outcomes,
  returnRate: share("Returned among delivered and returned"),
  returnShippingCost: nullable(rupees("Each return's shipping out and back; null while the setting is not set")),
});
const deliveriesShape = object({
  series: arrayOf(object({ period: pointStart, ...outcomes })),
  byCity: arrayOf(outcomeGroup),
  byCourier: arrayOf(outcomeGroup),
  byProduct: described(
    arrayOf(outcomeGroup),
    "A page of the products with a line in the period (`page`, `limit`: `pagination` beside `data` counts them all), most lines first; `orders` counts their lines",
  ),
  shippingCostEachWay: nullable(rupees("The setting the returns were priced at")),
  totals: deliveriesTotals,
  previous: deliveriesTotals,
  by: grouping,
  ...covering,
});

const confirmationCounts = {
  asked: count("Orders with a mobile number"),
  confirmed: count(),
  cancelledByCustomer: count(),
  notAnswered: count(),
  confirmationRate: share("Confirmed among asked"),
};
const confirmationTotals = object({
  ...confirmationCounts,
  medianMinutesToConfirm: nullable(number({ minimum: 0, description: "From the order to its confirmation" })),
});
const confirmationShape = object({
  series: arrayOf(object({ period: pointStart, ...confirmationCounts })),
  byChannel: arrayOf(object({ channel: text(), confirmed: count() })),
  totals: confirmationTotals,
  previous: confirmationTotals,
  by: grouping,
  ...covering,
});

const paymentsTotals = object({
  orders: count(),
  revenue: rupees(),
  discountUses: count(),
  amountGiven: rupees("What discount codes took off"),
  returns: count("Returns asked for in the period"),
  refunded: rupees("Refunds paid for them"),
});
const paymentsShape = object({
  series: described(
    arrayOf(object({ method: text(), label: text(), orders: count(), revenue: rupees() })),
    "Every payment method the store knows",
  ),
  discountCodes: arrayOf(object({ code: text(), uses: count(), amountGiven: rupees() })),
  returnReasons: arrayOf(object({ reason: text(), returns: count(), received: count(), refunded: rupees() })),
  totals: paymentsTotals,
  previous: paymentsTotals,
  ...covering,
});

const stockShape = object({
  series: described(
    arrayOf(
      object({
        productId: text({ format: "uuid" }),
        name: text(),
        brand: text(),
        stock: count(),
        reorderLevel: count(),
        unitsSold: count("In the 30 days ending on the period's last day"),
        daysOfCover: nullable(number({ minimum: 0, description: "Null when it sold nothing" })),
        waitingAlerts: count("Customers waiting for its back-in-stock mail"),
      }),
    ),
    "Products at or below their reorder level, out of stock first",
  ),
  totals: object({ lowStock: count(), outOfStock: count(), waitingAlerts: count() }),
  previous: described(nullable(object({})), "Always null: the store keeps no history of its stock"),
  salesWindow: object({ from: day("First day"), to: day("Last day") }),
  ...covering,
});

export const REPORT_SHAPES: Record<ReportName, Shape<unknown>> = {
  sales: salesShape,
  products: productsShape,
  deliveries: deliveriesShape,
  confirmation: confirmationShape,
  payments: paymentsShape,
  stock: stockShape,
};
