import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import type { Database } from "../../db/database";
import { REPORT_NAMES } from "./report-period.shared";
import { rollUpReportDays } from "./report-rollups";
import { ReportsService } from "./reports.service";
import {
  ReportOrders,
  address,
  changeArbitrary,
  karachi,
  orderArbitrary,
  orderSpec,
  rangeArbitrary,
} from "../../../tests/support/report-orders";

/**
 * The reports' kept daily figures (report-days.ts, report-rollups.ts): a report read from the
 * rolled-up days is the report computed from the orders, whatever the orders, their later
 * changes and the range; the job rolls up the history, and a change to an older order marks its
 * day so that reports stay right before the job runs again. Times are Karachi's (UTC+5).
 */

let database: TestDatabase;
let db: Database;
/** The store's clock: 20 November 2026 in the afternoon, so the 19th is the last closed day. */
const NOW = new Date("2026-11-20T10:00:00Z");
let reports: ReportsService;
let store: ReportOrders;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  reports = new ReportsService(db, () => NOW);
  await db("order_rules").where({ id: 1 }).update({ parcelShippingCost: 250 });
  store = await ReportOrders.on(db);
});

afterAll(async () => {
  await database?.drop();
});

beforeEach(() => store.fresh());

/** Every report for each range (stock's sales are those of the 30 days ending on its last day). */
async function allReports(ranges: { from: string; to: string }[]) {
  const answers = [];
  for (const range of ranges) {
    for (const name of REPORT_NAMES) {
      for (const by of ["day", "week", "month"]) answers.push(await reports.report(name, { ...range, by }));
    }
  }
  return answers;
}

describe("reports from kept daily figures", () => {
  it("equal the reports computed from the orders, for any orders, later changes and range", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(orderArbitrary(NOW), { minLength: 1, maxLength: 14 }),
        fc.array(changeArbitrary, { maxLength: 4 }),
        fc.array(rangeArbitrary(NOW), { minLength: 1, maxLength: 2 }),
        async (orders, changes, ranges) => {
          await store.fresh();
          const ids = [];
          for (const order of orders) ids.push(await store.place(order));
          const live = await allReports(ranges);
          await rollUpReportDays(db, NOW);
          expect(await allReports(ranges)).toEqual(live);

          for (const change of changes) await store.apply(ids, change);
          // Marked days are read live until the job runs, then kept again: the same figures, and
          // those of every day computed from the orders.
          const marked = await allReports(ranges);
          await rollUpReportDays(db, NOW);
          const rolledAgain = await allReports(ranges);
          await db("report_rolled_days").delete();
          const allLive = await allReports(ranges);
          expect(marked).toEqual(allLive);
          expect(rolledAgain).toEqual(allLive);
        },
      ),
      { numRuns: 6 },
    );
  }, 240_000);
});

const rolledDays = async () =>
  (
    await db.raw<{ rows: { day: string }[] }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day FROM report_rolled_days ORDER BY day",
    )
  ).rows.map((row) => row.day);
const markedDays = async () =>
  (
    await db.raw<{ rows: { day: string }[] }>(
      "SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM report_dirty_days ORDER BY day",
    )
  ).rows.map((row) => row.day);
const keptMoney = () =>
  db("report_day_money").orderBy(["day", "paymentMethod"]).select("day", "paymentMethod", "orders", "collectedAmount");

describe("the report-rollups job", () => {
  it("rolls up every closed day from the first order, and again gives the same rows", async () => {
    await store.place(orderSpec(karachi("2026-11-15T09:00:00"), { outcome: "Delivered" }));
    await store.place(orderSpec(karachi("2026-11-17T23:30:00"), { outcome: "Delivered" }));
    await store.place(orderSpec(karachi("2026-11-20T09:00:00")));

    expect(await rollUpReportDays(db, NOW)).toEqual({ days: 5 });
    // Today (the 20th) is computed live; the 19th has closed.
    expect(await rolledDays()).toEqual(["2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"]);
    const kept = await keptMoney();
    expect(kept.map((row) => [row.orders, Number(row.collectedAmount)])).toEqual([
      [1, 1000],
      [1, 1000],
    ]);
    // Today's order was marked (for the database's clock the 20th has closed); it stays marked
    // until the job rolls the 20th up.
    expect(await markedDays()).toEqual(["2026-11-20"]);

    expect(await rollUpReportDays(db, NOW)).toEqual({ days: 0 });
    // Two app servers at once: the one that gets the lock writes, the same rows as before.
    await db("report_rolled_days").delete();
    await Promise.all([rollUpReportDays(db, NOW), rollUpReportDays(db, NOW)]);
    await rollUpReportDays(db, NOW);
    expect(await keptMoney()).toEqual(kept);
    expect(await rolledDays()).toHaveLength(5);
  });

  it("does not roll up a day until an hour after it closed", async () => {
    await store.place(orderSpec(karachi("2026-11-19T23:30:00"), { outcome: "Delivered" }));
    await rollUpReportDays(db, karachi("2026-11-20T00:30:00"));
    expect(await rolledDays()).toEqual([]);
    await rollUpReportDays(db, karachi("2026-11-20T01:05:00"));
    expect(await rolledDays()).toEqual(["2026-11-19"]);
  });

  it("sees a late change to an older order at once, and keeps it at its next run", async () => {
    const id = await store.place(orderSpec(karachi("2026-11-10T23:30:00"), { courier: "TCS", outcome: "Shipped" }));
    await rollUpReportDays(db, NOW);
    const november = { from: "2026-11-01", to: "2026-11-20" };
    expect((await reports.report("sales", november)).totals).toMatchObject({ collected: 0, toCollect: 1000 });

    // The courier delivers it ten days later.
    await db("orders").where({ id }).update({ status: "Delivered" });
    expect(await markedDays()).toEqual(["2026-11-10"]);
    const afterChange = await reports.report("sales", november);
    expect(afterChange.totals).toMatchObject({ collected: 1000, toCollect: 0 });
    expect((await reports.report("deliveries", november)).byCourier).toMatchObject([{ name: "TCS", delivered: 1 }]);

    await rollUpReportDays(db, NOW);
    expect(await db("report_dirty_days").count({ marks: "*" }).first()).toEqual({ marks: 0 });
    expect(await reports.report("sales", november)).toEqual(afterChange);
    expect((await keptMoney()).map((row) => Number(row.collectedAmount))).toEqual([1000]);
  });

  it("marks an older order's day once for all the lines one statement adds to it", async () => {
    const id = await store.place(orderSpec(karachi("2026-11-12T10:00:00")));
    await rollUpReportDays(db, NOW);
    expect(await db("report_dirty_days").count({ marks: "*" }).first()).toEqual({ marks: 0 });

    await db("order_items").insert(
      [0, 1, 2].map((product) => ({
        orderId: id,
        productId: store.products[product],
        productName: `Line ${product}`,
        quantity: 1,
        unitPrice: 1000,
        position: 10 + product,
      })),
    );
    expect(await markedDays()).toEqual(["2026-11-12"]);
    expect(await db("report_dirty_days").count({ marks: "*" }).first()).toEqual({ marks: 1 });
  });

  it("marks each older day once for all the orders one statement changes on it", async () => {
    const ids = [
      await store.place(orderSpec(karachi("2026-11-12T10:00:00"))),
      await store.place(orderSpec(karachi("2026-11-12T23:30:00"))),
      await store.place(orderSpec(karachi("2026-11-13T00:10:00"))),
    ];
    await rollUpReportDays(db, NOW);
    await db("orders").whereIn("id", ids).update({ status: "Delivered" });
    const marks = await db.raw<{ rows: { day: string }[] }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day FROM report_dirty_days ORDER BY day",
    );
    expect(marks.rows.map((row) => row.day)).toEqual(["2026-11-12", "2026-11-13"]);
  });

  it("marks no day for today's orders, which are read live", async () => {
    await db("orders").insert({
      customerName: "Sana",
      customerEmail: "sana@example.com",
      ...address,
      city: "Lahore",
      totalPrice: 1000,
    });
    expect(await db("report_dirty_days").count({ marks: "*" }).first()).toEqual({ marks: 0 });
  });
});

/** Units sold per product name, as the products report lists them. */
const unitsOf = (report: { series: { name: string; units: number }[] }) =>
  Object.fromEntries(report.series.map((product) => [product.name, product.units]));

describe("the products kept per month", () => {
  it("add up the month's days, are read for a month wholly in the period, and not while one of its days is marked", async () => {
    await store.place(
      orderSpec(karachi("2026-09-30T23:30:00"), { lines: [{ product: 0, quantity: 1, unitPrice: 1000 }] }),
    );
    await store.place(
      orderSpec(karachi("2026-10-01T00:05:00"), { lines: [{ product: 0, quantity: 2, unitPrice: 1000 }] }),
    );
    const late = await store.place(
      orderSpec(karachi("2026-10-31T23:30:00"), {
        lines: [
          { product: 0, quantity: 3, unitPrice: 1000 },
          { product: 1, quantity: 1, unitPrice: 2450.25 },
        ],
      }),
    );
    await store.place(
      orderSpec(karachi("2026-11-01T00:10:00"), { lines: [{ product: 1, quantity: 4, unitPrice: 999.5 }] }),
    );
    await rollUpReportDays(db, NOW);

    const october = await db("report_month_products")
      .where({ month: "2026-10-01" })
      .orderBy("units")
      .select("units", "soldLines", "revenue");
    expect(october.map((row) => [row.units, row.soldLines, Number(row.revenue)])).toEqual([
      [1, 1, 2450.25],
      [5, 2, 5000],
    ]);
    const autumn = { from: "2026-09-30", to: "2026-11-01" };
    const computed = await reports.report("products", autumn);
    expect(unitsOf(computed)).toEqual({ Alpha: 6, Beta: 5 });

    // October is wholly in the period: its kept month is what the report adds up (a month row
    // changed by hand shows), and the days around it are read as days.
    await db("report_month_products").where({ month: "2026-10-01" }).increment("units", 100);
    expect(unitsOf(await reports.report("products", autumn))).toEqual({ Alpha: 106, Beta: 105 });
    // A period that leaves October's 1st out reads October's row less that day's rows: 105 - 2, 101 + 4.
    expect(unitsOf(await reports.report("products", { from: "2026-10-02", to: "2026-11-01" }))).toEqual({
      Alpha: 103,
      Beta: 105,
    });
    // One that leaves most of October out reads its days.
    expect(unitsOf(await reports.report("products", { from: "2026-10-20", to: "2026-11-01" }))).toEqual({
      Alpha: 3,
      Beta: 5,
    });

    // A change to an October order marks its day: until the job runs again, October is its month
    // row (still changed by hand) less the marked day's kept rows, with that day computed live;
    // the job then rewrites the month from its days.
    await db("orders").where({ id: late }).update({ status: "Cancelled" });
    const afterChange = { Alpha: 3, Beta: 4 };
    expect(unitsOf(await reports.report("products", autumn))).toEqual({ Alpha: 103, Beta: 104 });
    await rollUpReportDays(db, NOW);
    expect(unitsOf(await reports.report("products", autumn))).toEqual(afterChange);
    await db("report_rolled_days").delete();
    expect(unitsOf(await reports.report("products", autumn))).toEqual(afterChange);
  });
});

describe("the month a period ends in", () => {
  it("is read as its month row less the days left out when that reads fewer rows, else as its days", async () => {
    await store.place(
      orderSpec(karachi("2026-10-31T23:30:00"), { lines: [{ product: 0, quantity: 1, unitPrice: 1000 }] }),
    );
    await store.place(
      orderSpec(karachi("2026-11-01T00:05:00"), { lines: [{ product: 0, quantity: 2, unitPrice: 1000 }] }),
    );
    const second = await store.place(
      orderSpec(karachi("2026-11-02T12:00:00"), { lines: [{ product: 1, quantity: 4, unitPrice: 999.5 }] }),
    );
    await rollUpReportDays(db, NOW);
    const toToday = { from: "2026-10-31", to: "2026-11-20" };
    expect(unitsOf(await reports.report("products", toToday))).toEqual({ Alpha: 3, Beta: 4 });

    // November's month row (changed by hand, so that reading it shows), less its days from the
    // 21st (none sold), stands for its first twenty days.
    await db("report_month_products").where({ month: "2026-11-01" }).increment("units", 100);
    expect(unitsOf(await reports.report("products", toToday))).toEqual({ Alpha: 103, Beta: 104 });
    // A period with one day of November reads that day.
    expect(unitsOf(await reports.report("products", { from: "2026-10-31", to: "2026-11-01" }))).toEqual({ Alpha: 3 });
    // One from the 2nd has 18 kept days of November and leaves 12 out (the 1st, today the 20th,
    // computed live, and the days after it): the days are read, fewer than the month less them.
    expect(unitsOf(await reports.report("products", { from: "2026-11-02", to: "2026-11-20" }))).toEqual({ Beta: 4 });

    // A change marks the 2nd: with it live as well, November has 18 kept days in the period and
    // 12 left out, and its days are read (the month row changed by hand is not).
    await db("order_items").where({ order_id: second }).update({ quantity: 5 });
    expect(unitsOf(await reports.report("products", toToday))).toEqual({ Alpha: 3, Beta: 5 });
    await rollUpReportDays(db, NOW);
    expect(unitsOf(await reports.report("products", toToday))).toEqual({ Alpha: 3, Beta: 5 });
    // A day listed as not rolled up is live even though its rows are kept: the days are read.
    await db("report_month_products").where({ month: "2026-11-01" }).increment("units", 100);
    await db("report_rolled_days").where({ day: "2026-11-02" }).delete();
    expect(unitsOf(await reports.report("products", toToday))).toEqual({ Alpha: 3, Beta: 5 });
  });
});

describe("a month read as its row less some of its days", () => {
  it("gives the sums of the period's days: the deliveries per product and the products' period before", async () => {
    await store.place(
      orderSpec(karachi("2026-10-05T12:00:00"), { lines: [{ product: 2, quantity: 1, unitPrice: 500 }] }),
    );
    await store.place(
      orderSpec(karachi("2026-10-20T12:00:00"), { lines: [{ product: 0, quantity: 2, unitPrice: 1000 }] }),
    );
    await store.place(
      orderSpec(karachi("2026-10-31T23:30:00"), { lines: [{ product: 1, quantity: 3, unitPrice: 1000 }] }),
    );
    await rollUpReportDays(db, NOW);
    // October 13 to 31 leaves twelve of October's days out: read as October's row less those days.
    const lateOctober = { from: "2026-10-13", to: "2026-10-31" };
    const linesOf = async () =>
      Object.fromEntries(
        (await reports.report("deliveries", lateOctober)).byProduct.map((product) => [product.name, product.orders]),
      );
    // Gamma, sold on the 5th only, is not listed (its sums cancel out), nor counted.
    expect(await linesOf()).toEqual({ Alpha: 1, Beta: 1 });
    expect((await reports.report("deliveries", lateOctober)).pagination.total).toBe(2);
    // November 1 to 19: the period before is October 13 to 31.
    const november = { from: "2026-11-01", to: "2026-11-19" };
    expect((await reports.report("products", november)).previous).toEqual({ units: 5, revenue: 5000, productsSold: 2 });

    // The month rows (changed by hand, so that reading them shows) are what those read, less the days left out.
    await db("report_month_products").where({ month: "2026-10-01" }).increment({ lines: 100, units: 100 });
    expect(await linesOf()).toEqual({ Alpha: 101, Beta: 101, Gamma: 100 });
    // Gamma's lines sold still cancel out, so its units are not counted: 102 + 103.
    expect((await reports.report("products", november)).previous.units).toBe(205);
  });
});

describe("runs of months read as running totals", () => {
  it("give each product's sums over the run, and the name it sold under in the period", async () => {
    await store.place(
      orderSpec(karachi("2026-09-15T12:00:00"), { lines: [{ product: 0, quantity: 1, unitPrice: 1000 }] }),
    );
    await store.place(
      orderSpec(karachi("2026-10-15T12:00:00"), { lines: [{ product: 0, quantity: 2, unitPrice: 1000 }] }),
    );
    const renamed = await store.place(
      orderSpec(karachi("2026-11-10T12:00:00"), { lines: [{ product: 0, quantity: 4, unitPrice: 1000 }] }),
    );
    // Alpha was sold as "Alpha Prime" in November.
    await db("order_items").where({ order_id: renamed }).update({ product_name: "Alpha Prime" });
    await rollUpReportDays(db, NOW);
    const through = await db("report_month_products_through")
      .whereNotNull("product_id")
      .orderBy("month")
      .select(db.raw("to_char(month, 'YYYY-MM-DD') AS month"), "units");
    expect(through).toEqual([
      { month: "2026-09-01", units: 1 },
      { month: "2026-10-01", units: 3 },
      { month: "2026-11-01", units: 7 },
    ]);

    // October and November (all but its days from today on): November's totals less September's.
    const autumn = { from: "2026-10-01", to: "2026-11-19" };
    const sold = async (range: { from: string; to: string }) =>
      (await reports.report("products", range)).series.map(({ name, units }) => ({ name, units }));
    expect(await sold(autumn)).toEqual([{ name: "Alpha Prime", units: 6 }]);
    expect(await sold({ from: "2026-09-01", to: "2026-10-31" })).toEqual([{ name: "Alpha", units: 3 }]);
    // The totals (changed by hand, so that reading them shows) are what the run reads.
    await db("report_month_products_through").where({ month: "2026-11-01" }).increment("units", 100);
    expect(await sold(autumn)).toEqual([{ name: "Alpha Prime", units: 106 }]);
    // A change to the November order marks its day; the job rewrites the totals from November on.
    await db("order_items").where({ order_id: renamed }).update({ quantity: 5 });
    await rollUpReportDays(db, NOW);
    expect(await sold(autumn)).toEqual([{ name: "Alpha Prime", units: 7 }]);
  });
});

describe("the confirmed waits kept per day", () => {
  const week = { from: "2026-11-14", to: "2026-11-20" };
  const median = async () => (await reports.report("confirmation", week)).totals.medianMinutesToConfirm;
  const keptWaits = async () =>
    (
      await db.raw<{ rows: { day: string; waits: number[] }[] }>(
        "SELECT to_char(day, 'YYYY-MM-DD') AS day, waits FROM report_day_confirmation_waits ORDER BY day",
      )
    ).rows;

  it("are the days' waits in seconds, and the median is of the kept and live days' waits together", async () => {
    // Confirmed in 10, 40, 20 and 30 minutes (and 17 seconds) over three closed days and today.
    await store.place(orderSpec(karachi("2026-11-17T23:30:00"), { answer: "confirmed", answerMinutes: 10 }));
    const eighteenth = await store.place(
      orderSpec(karachi("2026-11-18T09:00:00"), { answer: "confirmed", answerMinutes: 40 }),
    );
    await store.place(orderSpec(karachi("2026-11-18T10:00:00"), { answer: "pending" }));
    await store.place(orderSpec(karachi("2026-11-19T00:10:00"), { answer: "confirmed", answerMinutes: 20 }));
    await store.place(orderSpec(karachi("2026-11-20T09:00:00"), { answer: "confirmed", answerMinutes: 30 }));
    // The median falls between two days' waits: (20:17 + 30:17) / 2 = 25:17, 25.3 minutes.
    const computed = await reports.report("confirmation", week);
    expect(computed.totals.medianMinutesToConfirm).toBe(25.3);

    await rollUpReportDays(db, NOW);
    expect(await keptWaits()).toEqual([
      { day: "2026-11-17", waits: [617] },
      { day: "2026-11-18", waits: [2417] },
      { day: "2026-11-19", waits: [1217] },
    ]);
    expect(await reports.report("confirmation", week)).toEqual(computed);
    // The kept waits are what the report reads (a wait changed by hand shows): 1217, 1817, 2417, 6017.
    await db("report_day_confirmation_waits")
      .where({ day: "2026-11-17" })
      .update({ waits: [6017] });
    expect(await median()).toBe(35.3);
    await db("report_day_confirmation_waits")
      .where({ day: "2026-11-17" })
      .update({ waits: [617] });

    // Confirmed again in 5 minutes: the 18th is marked and read live until the job rewrites it.
    await db("orders")
      .where({ id: eighteenth })
      .update({ confirmationAt: karachi("2026-11-18T09:05:17") });
    expect(await markedDays()).toContain("2026-11-18");
    // 317, 617, 1217, 1817: 917 seconds.
    expect(await median()).toBe(15.3);
    await rollUpReportDays(db, NOW);
    expect((await keptWaits())[1]).toEqual({ day: "2026-11-18", waits: [317] });
    expect(await median()).toBe(15.3);
    await db("report_rolled_days").delete();
    expect(await median()).toBe(15.3);
  });
});
