/**
 * The orders export (docs/product.md, "Finding and exporting orders"): CSV as RFC 4180 writes
 * it (fields with a comma, a quote or a line break in double quotes, quotes doubled, lines ended
 * by CRLF), in UTF-8 with a byte order mark so that Excel reads Urdu names as they are, under
 * fixed English headers.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
 * before one) as a formula: a customer named `=HYPERLINK(…)` would run in the shop's sheet. Such
 * a cell is written with a leading `'`, which spreadsheets read as "this is text".
 */
export type OrderCsvRow = {
  number: string;
  date: string;
  customer: string;
  email: string;
  phone: string;
  city: string;
  address: string;
  items: string;
  /** The items' prices before the discount. */
  subtotal: string;
  /** What the discount code took off (0 without one). */
  discount: string;
  /** What the customer pays: subtotal less discount, delivery free. */
  total: string;
  /** The refunds paid for the order's returns (0 without one). */
  refund: string;
  status: string;
  courier: string;
  trackingNumber: string;
};

export const ORDER_CSV_COLUMNS: [keyof OrderCsvRow, string][] = [
  ["number", "Order"],
  ["date", "Date"],
  ["customer", "Customer"],
  ["email", "Email"],
  ["phone", "Phone"],
  ["city", "City"],
  ["address", "Address"],
  ["items", "Items"],
  ["subtotal", "Subtotal"],
  ["discount", "Discount"],
  ["total", "Total"],
  ["refund", "Refund"],
  ["status", "Status"],
  ["courier", "Courier"],
  ["trackingNumber", "Tracking Number"],
];

const BYTE_ORDER_MARK = "\uFEFF";

/** One cell: made inert when a spreadsheet would run it, then quoted when RFC 4180 asks. */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

export function ordersCsv(rows: OrderCsvRow[]): string {
  const lines = [
    ORDER_CSV_COLUMNS.map(([, header]) => header),
    ...rows.map((row) => ORDER_CSV_COLUMNS.map(([key]) => row[key])),
  ];
  return BYTE_ORDER_MARK + lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** A CSV column: its header, and its cell of a row (empty for null). */
export type CsvColumn<Row> = [header: string, value: (row: Row) => string | number | null];

/** Any table written with the orders export's rules: the reports' downloads and the couriers' (/admin/couriers). */
export function csvTable<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  const lines = [
    columns.map(([header]) => header),
    ...rows.map((row) => columns.map(([, value]) => String(value(row) ?? ""))),
  ];
  return BYTE_ORDER_MARK + lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
