import type { ApiCourier } from "../modules/fulfilment/shipments";
import type { CourierBooking } from "../providers/couriers/courier-provider.shared";

/**
 * A courier booked through its API, as the settings turn it on (server/settings/courier-settings.ts): the
 * booking flow books and follows with it, the order's life cancels a live consignment with it.
 */
export type ApiCourierClient = { id: "postex" | "leopards"; name: ApiCourier; booking: CourierBooking };
