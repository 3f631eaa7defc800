import type { Knex } from "knex";
import { cashOnDelivery } from "../../providers/payment-methods/cash-on-delivery.shared";
import { NOT_CONFIRMED_REASON } from "./order-confirmation.shared";
import type { PhoneRecord } from "./phone-record.shared";

/**
 * The phone's record counted by PostgreSQL, as the select list of a query over `orders` grouped
 * by phone: the admin pages show it beside the number, and checkout's rules read the same counts
 * (server/flows/checkout.ts), so what the admin sees is what a rule judges. `open_cod` counts the
 * open cash-on-delivery orders, which the open-orders rule limits.
 */
export const PHONE_RECORD_COLUMNS = `
  (COUNT(*) FILTER (WHERE status = 'Delivered'))::int AS delivered,
  (COUNT(*) FILTER (WHERE outcome_kind = 'returned'))::int AS returned,
  (COUNT(*) FILTER (WHERE status = 'Cancelled' AND outcome_kind IS NULL
                      AND (cancelled_by_customer OR confirmation_status = 'cancelled')))::int AS "cancelledByCustomer",
  (COUNT(*) FILTER (WHERE status = 'Cancelled' AND cancel_reason = '${NOT_CONFIRMED_REASON}'))::int AS "notConfirmed",
  (COUNT(*) FILTER (WHERE status IN ('Pending', 'Shipped')))::int AS open,
  (COUNT(*) FILTER (WHERE status IN ('Pending', 'Shipped') AND payment_method = '${cashOnDelivery.name}'))::int AS "openCod"`;

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
