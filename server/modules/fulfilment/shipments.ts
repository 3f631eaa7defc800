import type { Knex } from "knex";
import type { CourierCity } from "../../providers/couriers/courier-provider.shared";

/**
 * The shipments table: each booking attempt of an order with a courier's API, and each courier's
 * city list kept a day (migrations/20261126000040_shipments.ts;
 * docs/decisions/2026-11-26-courier-booking.md). Each part runs in the caller's transaction.
 */
export type ShipmentState = "booking" | "in-doubt" | "booked" | "refused" | "cancelled";
export type ApiCourier = "PostEx" | "Leopards";

export type ShipmentRow = {
  id: string;
  orderId: string;
  courier: ApiCourier;
  state: ShipmentState;
  reference: string;
  cityName: string;
  cityId: string | null;
  trackingNumber: string | null;
  airwayBillUrl: string | null;
  error: string | null;
  requestedBy: string;
  attemptedAt: Date;
  bookedAt: Date | null;
  cancelledAt: Date | null;
};

const LIVE_STATES: ShipmentState[] = ["booking", "in-doubt", "booked"];

/** The order's live attempt (booking, in doubt or booked), if any. */
export async function liveShipment(trx: Knex, orderId: string): Promise<ShipmentRow | null> {
  const row = await trx<ShipmentRow>("shipments").where({ orderId }).whereIn("state", LIVE_STATES).first();
  return row ?? null;
}

/** The order's last attempt of any state (a refusal's words stay on the page until the next try). */
export async function lastShipment(trx: Knex, orderId: string): Promise<ShipmentRow | null> {
  const row = await trx<ShipmentRow>("shipments")
    .where({ orderId })
    .orderBy([
      { column: "createdAt", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .first();
  return row ?? null;
}

/**
 * The tracking numbers of the courier's parcels booked at or after `since` and still booked (not
 * cancelled), in the order they were booked: the day's load sheet (server/flows/courier-papers.ts).
 */
export async function bookedTrackingNumbers(db: Knex, courier: ApiCourier, since: Date): Promise<string[]> {
  const rows: { trackingNumber: string }[] = await db("shipments")
    .where({ courier, state: "booked" })
    .where("bookedAt", ">=", since)
    .orderBy("bookedAt")
    .select("trackingNumber");
  return rows.map((row) => row.trackingNumber);
}

export async function insertAttempt(
  trx: Knex,
  attempt: Pick<
    ShipmentRow,
    "orderId" | "courier" | "reference" | "cityName" | "cityId" | "requestedBy" | "attemptedAt"
  >,
): Promise<ShipmentRow> {
  const [row] = await trx<ShipmentRow>("shipments")
    .insert({ ...attempt, state: "booking" })
    .returning("*");
  return row!;
}

export async function updateShipment(trx: Knex, id: string, change: Partial<ShipmentRow>): Promise<void> {
  await trx("shipments")
    .where({ id })
    .update({ ...change, updatedAt: trx.fn.now() });
}

/** The courier's cities when fetched less than a day before `now`; null when they must be asked again. */
export async function keptCities(trx: Knex, courier: ApiCourier, now: Date): Promise<CourierCity[] | null> {
  const rows: { name: string; cityId: string | null }[] = await trx("courier_cities")
    .where({ courier })
    .where("fetchedAt", ">", new Date(now.getTime() - 24 * 60 * 60 * 1000))
    .orderBy("name")
    .select("name", "cityId");
  return rows.length > 0 ? rows.map((row) => ({ id: row.cityId, name: row.name })) : null;
}

export async function keepCities(trx: Knex, courier: ApiCourier, cities: CourierCity[], now: Date): Promise<void> {
  await trx("courier_cities").where({ courier }).del();
  const unique = [...new Map(cities.map((city) => [city.name, city])).values()];
  for (let start = 0; start < unique.length; start += 500) {
    await trx("courier_cities").insert(
      unique
        .slice(start, start + 500)
        .map((city) => ({ courier, name: city.name.slice(0, 100), cityId: city.id, fetchedAt: now })),
    );
  }
}

/** Case and spacing do not matter when a city's name is matched against a courier's list. */
export function cityKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The order's consignment as its life reads it (server/modules/order-life/), an SQL expression on
 * `orders`: `booking` while a call is under way or in doubt, `booked` while the courier has a parcel
 * it has not yet delivered, returned or cancelled, else `none`.
 */
export const PARCEL_STATE_SQL = `COALESCE((SELECT CASE
      WHEN shipments.state IN ('booking', 'in-doubt') THEN 'booking'
      WHEN COALESCE(shipments.stage, '') IN ('delivered', 'returned', 'cancelled') THEN 'none'
      ELSE 'booked' END
    FROM shipments WHERE shipments.order_id = orders.id AND shipments.state IN ('booking', 'in-doubt', 'booked')), 'none')`;

/** The consignment was cancelled with its courier: no longer live. */
export async function cancelledShipment(trx: Knex, id: string, now: Date): Promise<void> {
  await updateShipment(trx, id, { state: "cancelled", cancelledAt: now });
}
