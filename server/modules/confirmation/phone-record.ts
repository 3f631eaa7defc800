import type { Knex } from "knex";
import { cashOnDelivery } from "../../providers/payment-methods/cash-on-delivery.shared";
import { NOT_CONFIRMED_REASON } from "./order-confirmation.shared";
import type { PhoneRecord } from "./phone-record.shared";

/** An order its customer cancelled themselves: under My Orders, or from the confirmation. */
const CANCELLED_BY_CUSTOMER = `status = 'Cancelled' AND outcome_kind IS NULL
                               AND (cancelled_by_customer OR confirmation_status = 'cancelled')`;

/**
 * Cash-on-delivery orders, and what the open-orders rule counts of them (docs/product.md,
 * "Cash-on-delivery rules"): those open (Pending or Shipped), and those their customer cancelled
 * in the last 24 hours, which count as open for the limit (RULINGS, sixth wave), so that placing
 * and cancelling in a loop is held to it. The cancel is the order's last change (a cancelled
 * order changes no more, but for an admin's restoring it, which makes it open again), so its
 * `updated_at` says when it was.
 */
export const OPEN_COD_COLUMNS = `
  (COUNT(*) FILTER (WHERE status IN ('Pending', 'Shipped') AND payment_method = '${cashOnDelivery.name}'))::int AS "openCod",
  (COUNT(*) FILTER (WHERE ${CANCELLED_BY_CUSTOMER} AND payment_method = '${cashOnDelivery.name}'
                      AND updated_at > now() - interval '24 hours'))::int AS "cancelledRecently"`;

/**
 * The phone's record counted by PostgreSQL, as the select list of a query over `orders` grouped
 * by phone: the admin pages show it beside the number, and checkout's rules read the same counts
 * (server/flows/checkout.ts), so what the admin sees is what a rule judges.
 */
export const PHONE_RECORD_COLUMNS = `
  (COUNT(*) FILTER (WHERE status = 'Delivered'))::int AS delivered,
  (COUNT(*) FILTER (WHERE outcome_kind = 'returned'))::int AS returned,
  (COUNT(*) FILTER (WHERE ${CANCELLED_BY_CUSTOMER}))::int AS "cancelledByCustomer",
  (COUNT(*) FILTER (WHERE status = 'Cancelled' AND cancel_reason = '${NOT_CONFIRMED_REASON}'))::int AS "notConfirmed",
  (COUNT(*) FILTER (WHERE status IN ('Pending', 'Shipped')))::int AS open`;

/** The records of these phones, in one query (a number without orders has none in the map). */
export async function phoneRecords(db: Knex, phones: string[]): Promise<Map<string, PhoneRecord>> {
  const distinct = [...new Set(phones)];
  if (distinct.length === 0) return new Map();
  const { rows } = await db.raw<{ rows: (PhoneRecord & { phone: string })[] }>(
    `SELECT phone, ${PHONE_RECORD_COLUMNS} FROM orders WHERE phone = ANY(?) GROUP BY phone`,
    [distinct],
  );
  return new Map(
    rows.map((row) => [
      row.phone,
      {
        delivered: row.delivered,
        returned: row.returned,
        cancelledByCustomer: row.cancelledByCustomer,
        notConfirmed: row.notConfirmed,
        open: row.open,
      },
    ]),
  );
}
