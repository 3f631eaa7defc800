/**
 * The figures of /admin/couriers (server/modules/fulfilment/courier-ledger.ts): plain data, for the
 * page and the order list's filter by courier figure alike.
 */
export const COURIER_FIGURES = ["unpaid", "paid-this-month", "late", "returning"] as const;
export type CourierFigure = (typeof COURIER_FIGURES)[number];

/** How the order list names each figure when it is filtered by one. */
export const COURIER_FIGURE_LABELS: Record<CourierFigure, string> = {
  unpaid: "delivered, cash not paid over yet",
  "paid-this-month": "paid over this month",
  late: "out longer than the late days since pickup",
  returning: "returns on the way back",
};

/** Parcels, and the cash they stand for in whole rupees (what the courier collects at the door). */
export type LedgerFigure = { count: number; amount: number };

export type CourierLedgerRow = {
  courier: "PostEx" | "Leopards";
  unpaid: LedgerFigure;
  paidThisMonth: LedgerFigure;
  late: LedgerFigure;
  returning: LedgerFigure;
};
