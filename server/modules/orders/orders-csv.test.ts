import { describe, expect, it } from "vitest";
import { csvCell, ordersCsv, type OrderCsvRow } from "./orders-csv";

const row: OrderCsvRow = {
  number: "#ABCD1234",
  date: "2026-11-23 15:04",
  customer: "Ayesha Khan",
  email: "ayesha@example.pk",
  phone: "0300-1234567",
  city: "Lahore",
  address: "12 Canal Road, Lahore, Punjab 54000, Pakistan",
  items: "Seamaster × 2",
  subtotal: "57777.77",
  discount: "5777.78",
  total: "51999.99",
  refund: "0",
  status: "Shipped",
  courier: "TCS",
  trackingNumber: "TCS-123456",
};

describe("the orders CSV", () => {
  it("starts with a byte order mark and fixed English headers, and ends each line with CRLF", () => {
    const csv = ordersCsv([row]);
    expect(
      csv.startsWith(
        "\uFEFFOrder,Date,Customer,Email,Phone,City,Address,Items,Subtotal,Discount,Total,Refund,Status,Courier,Tracking Number\r\n",
      ),
    ).toBe(true);
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.split("\r\n")).toHaveLength(3);
  });

  it("quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("")).toBe("");
    expect(csvCell("عائشہ خان")).toBe("عائشہ خان");
  });

  it.each(['=HYPERLINK("http://evil.example")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])(
    "makes %j inert with a leading quote mark",
    (value) => {
      const cell = csvCell(value);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
      expect(unquoted).toBe(`'${value}`);
    },
  );
});
