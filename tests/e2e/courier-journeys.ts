import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures";
import { productsInStock, type Account } from "./store-api";
import { thisWorkersStore } from "./worker-store";

/**
 * What the couriers' journeys share: a confirmed order to book, and the couriers' fakes the
 * worker's store starts with (tests/e2e/worker-store.ts), reached through their test-only control
 * paths (tests/support/courier-fakes/, CourierFake.control).
 */
export const COURIER_FAKES = thisWorkersStore().courierFakes;

export type FakeCourierId = keyof typeof COURIER_FAKES;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const controlUrl = (courier: FakeCourierId, path: string) =>
  `http://127.0.0.1:${COURIER_FAKES[courier]}/__fake/${path}`;

let phones = 0;

/**
 * A Pending cash-on-delivery order of one watch, to `city`, confirmed by phone by the admin. Each
 * order has a mobile number of its own: the COD rules allow a phone two open orders, and a parcel
 * left booked or on its way back keeps its order open for the rest of the run.
 */
export async function confirmedOrder(request: APIRequestContext, customer: Account, token: string, city: string) {
  const [product] = await productsInStock(request, 2);
  const added = await request.post("/api/v1/cart", {
    headers: bearer(customer.token),
    data: { productId: product!._id, quantity: 1 },
  });
  expect(added.status(), await added.text()).toBe(200);
  const placed = await request.post("/api/v1/orders", {
    headers: bearer(customer.token),
    data: {
      address: { street: "12 Canal Road", city, state: "Punjab", zipCode: "54000", country: "Pakistan" },
      phone: `0301-${String(Date.now() % 1_000_000).padStart(6, "0")}${++phones % 10}`,
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderId = ((await placed.json()).data as { _id: string })._id;
  const confirmed = await request.post(`/api/v1/orders/${orderId}/confirm`, { headers: bearer(token) });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return orderId;
}

export type FakeConsignmentSeen = {
  trackingNumber: string;
  reference: string;
  booking: Record<string, unknown>;
  cancelled: boolean;
};

/** The consignments booked on a courier's fake for an order (its reference is the order's number). */
export async function consignmentsOf(
  request: APIRequestContext,
  courier: FakeCourierId,
  orderId: string,
): Promise<FakeConsignmentSeen[]> {
  const answer = await request.get(controlUrl(courier, "consignments"));
  expect(answer.status()).toBe(200);
  const all = (await answer.json()) as FakeConsignmentSeen[];
  return all.filter((consignment) => consignment.reference === orderId.slice(-8).toUpperCase());
}

/** The courier reports a status of the parcel now. */
export async function courierReports(
  request: APIRequestContext,
  courier: FakeCourierId,
  tracking: string,
  status: { text: string; code?: string; reason?: string },
) {
  const reported = await request.post(controlUrl(courier, `parcels/${encodeURIComponent(tracking)}/statuses`), {
    data: status,
  });
  expect(reported.status(), await reported.text()).toBe(200);
}

/**
 * The courier refuses every call with `message` in its own envelope, or answers again ("ok").
 * The fakes serve the whole run: a journey that refuses puts them back in a `finally`.
 */
export async function setCourierMode(
  request: APIRequestContext,
  courier: FakeCourierId,
  mode: { kind: "ok" } | { kind: "refuse"; message: string },
) {
  const set = await request.put(controlUrl(courier, "mode"), { data: mode });
  expect(set.status(), await set.text()).toBe(200);
}

/** Every open parcel followed now (POST /shipments/sync), rather than at the next scheduled run. */
export async function syncNow(request: APIRequestContext, token: string) {
  const synced = await request.post("/api/v1/shipments/sync", { headers: bearer(token) });
  expect(synced.status(), await synced.text()).toBe(200);
}
