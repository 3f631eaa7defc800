import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { systemClock, type Clock } from "../shared/clock";
import { dateToZonedLocal } from "../shared/zoned-time.shared";
import { STORE_TIME_ZONE } from "../orders/order-values.shared";
import { csvTable } from "../orders/orders-csv";
import { COURIER_FIGURES, type CourierFigure, type CourierLedgerRow } from "./courier-ledger.shared";
import type { ApiCourier } from "./shipments";

/**
 * What each courier owes and holds (docs/couriers.md, "Payments"; /admin/couriers): of the parcels
 * booked through its API, the delivered cash-on-delivery ones it has not paid over, those it paid
 * this month (in Pakistan), those out longer than COURIER_LATE_DAYS since pickup, and the returns
 * on their way back. Each figure is one SQL condition below, counted here in one query; the order
 * list's filter by courier figure reads the same condition (parcelFigureOrderIds).
 */

/** A parcel's pickup: the first event of it in the courier's hands (the order then became Shipped). */
const PICKED_UP_AT = `(SELECT min(COALESCE(e.at, e.seen_at)) FROM shipment_events e
                        WHERE e.shipment_id = s.id
                          AND e.status IN ('picked-up', 'in-transit', 'out-for-delivery', 'attempted',
                                           'delivered', 'returned'))`;

/**
 * Each figure's condition on a booked parcel `s` of order `o`. Bindings by name: `monthStart` and
 * `nextMonthStart` (dates in Pakistan), `lateBefore` (the instant COURIER_LATE_DAYS ago).
 */
const FIGURE_CONDITIONS: Record<CourierFigure, string> = {
  // The parcels the sync asks the courier's payment status of (shipment-events.ts, parcelsAwaitingPayment).
  unpaid: `s.stage = 'delivered' AND o.payment_status = 'on-delivery' AND NOT s.paid`,
  "paid-this-month": `s.paid AND s.paid_date >= :monthStart AND s.paid_date < :nextMonthStart`,
  // Neither delivered nor cancelled, nor on its way back (counted as a return), nor received back.
  late: `(s.stage IS NULL OR s.stage NOT IN ('delivered', 'cancelled', 'returned'))
         AND o.received_back_at IS NULL AND ${PICKED_UP_AT} < :lateBefore`,
  returning: `s.stage = 'returned' AND o.received_back_at IS NULL`,
};

/** The amount a parcel stands for: the cash the courier collects, the order's total in whole rupees (RULINGS). */
const PARCEL_AMOUNT = "CASE WHEN o.payment_status = 'on-delivery' THEN round(o.total_price) ELSE 0 END";

export class CourierLedgerService {
  constructor(
    private readonly db: Database,
    private readonly options: {
      /** The couriers booked through their APIs that are on, in the page's order. */
      couriers: readonly ApiCourier[];
      /** COURIER_LATE_DAYS. */
      lateDays: number;
      clock?: Clock;
    },
  ) {}

  get couriers(): readonly ApiCourier[] {
    return this.options.couriers;
  }

  get lateDays(): number {
    return this.options.lateDays;
  }

  private now(): Date {
    return (this.options.clock ?? systemClock)();
  }

  /** Each courier that is on, with its four figures (a courier without parcels has zeros). */
  async figures(): Promise<{ month: string; lateDays: number; rows: CourierLedgerRow[] }> {
    const { month, bindings } = figureBindings(this.now(), this.options.lateDays);
    const couriers = this.options.couriers;
    if (couriers.length === 0) return { month, lateDays: this.options.lateDays, rows: [] };
    const columns = COURIER_FIGURES.map((figure) => {
      const condition = FIGURE_CONDITIONS[figure];
      const name = figure.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
      return `count(*) FILTER (WHERE ${condition})::int AS "${name}Count",
              COALESCE(sum(${PARCEL_AMOUNT}) FILTER (WHERE ${condition}), 0)::float8 AS "${name}Amount"`;
    }).join(",\n");
    const { rows } = await this.db.raw<{ rows: Record<string, number | string>[] }>(
      `SELECT s.courier, ${columns}
         FROM shipments s JOIN orders o ON o.id = s.order_id
        WHERE s.state = 'booked'
        GROUP BY s.courier`,
      bindings,
    );
    return {
      month,
      lateDays: this.options.lateDays,
      rows: couriers.map((courier) => {
        const found = rows.find((row) => row.courier === courier);
        const figure = (name: string) => ({
          count: Number(found?.[`${name}Count`] ?? 0),
          amount: Number(found?.[`${name}Amount`] ?? 0),
        });
        return {
          courier,
          unpaid: figure("unpaid"),
          paidThisMonth: figure("paidThisMonth"),
          late: figure("late"),
          returning: figure("returning"),
        };
      }),
    };
  }

  /** The page's table as a CSV download: one line a courier, money in rupees as numbers. */
  async csv(): Promise<{ month: string; csv: string }> {
    const { month, lateDays, rows } = await this.figures();
    const csv = csvTable<CourierLedgerRow>(
      [
        ["Courier", (row) => row.courier],
        ["Delivered, not paid (parcels)", (row) => row.unpaid.count],
        ["Delivered, not paid (Rs)", (row) => row.unpaid.amount],
        [`Paid in ${month} (parcels)`, (row) => row.paidThisMonth.count],
        [`Paid in ${month} (Rs)`, (row) => row.paidThisMonth.amount],
        [`Out over ${lateDays} days (parcels)`, (row) => row.late.count],
        [`Out over ${lateDays} days (Rs)`, (row) => row.late.amount],
        ["Returns on the way back (parcels)", (row) => row.returning.count],
        ["Returns on the way back (Rs)", (row) => row.returning.amount],
      ],
      rows,
    );
    return { month, csv };
  }
}

/** The month the figures count payments in ("2026-11", in Pakistan) and the conditions' bindings at `now`. */
function figureBindings(now: Date, lateDays: number) {
  const today = dateToZonedLocal(now.toISOString(), STORE_TIME_ZONE).slice(0, 10);
  const [year, month] = today.split("-").map(Number) as [number, number];
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const monthStart = `${year}-${String(month).padStart(2, "0")}-01`;
  return {
    month: monthStart.slice(0, 7),
    bindings: {
      monthStart,
      nextMonthStart: `${next.year}-${String(next.month).padStart(2, "0")}-01`,
      lateBefore: new Date(now.getTime() - lateDays * 24 * 60 * 60 * 1000),
    },
  };
}

/** The orders whose parcel with this courier counts in this figure at `now` (the order list's filter). */
export function parcelFigureOrderIds(
  db: Knex,
  filter: { courier: ApiCourier; figure: CourierFigure },
  now: Date,
  lateDays: number,
): Knex.Raw {
  return db.raw(
    `SELECT s.order_id FROM shipments s JOIN orders o ON o.id = s.order_id
      WHERE s.state = 'booked' AND s.courier = :courier AND ${FIGURE_CONDITIONS[filter.figure]}`,
    { ...figureBindings(now, lateDays).bindings, courier: filter.courier },
  );
}
