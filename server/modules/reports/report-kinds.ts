import type { ConfirmationReport } from "./confirmation-report";
import type { DeliveriesReport } from "./deliveries-report";
import type { PaymentsReport } from "./payments-report";
import type { ProductsReport } from "./products-report";
import type { ReportPeriod } from "./report-period.shared";
import type { SalesReport } from "./sales-report";
import type { StockReport } from "./stock-report";

/** Each report, with the days it covers and those it compares with. */
type Covering = { period: ReportPeriod; previousPeriod: ReportPeriod };

/** Every report by its name, as the service answers it and the CSV and pages read it. */
export type Reports = {
  sales: SalesReport & Covering;
  products: ProductsReport & Covering;
  deliveries: DeliveriesReport & Covering;
  confirmation: ConfirmationReport & Covering;
  payments: PaymentsReport & Covering;
  stock: StockReport & Covering;
};
