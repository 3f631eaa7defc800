import { defineApiRoute, type ApiRoute } from "../api-route";
import { orderShape } from "../../modules/orders/order.shape";
import { shipmentSchema } from "../../flows/shipping";
import { arrayOf, dateTime, described, integer, nullable, object, oneOf, text } from "../../modules/shared/shapes";

/** What POST /shipments/sync answers: each courier asked (or left alone), and what became of the orders. */
const syncReportShape = object({
  couriers: arrayOf(
    object({
      courier: oneOf(["PostEx", "Leopards"] as const),
      parcels: described(integer({ minimum: 0 }), "Booked parcels asked after (those not yet delivered or cancelled)"),
      events: described(integer({ minimum: 0 }), "Events new to the store (one seen before is not counted again)"),
      skippedUntil: described(
        nullable(dateTime()),
        "Set when the courier was not asked: it failed before and is left alone until then (the wait doubles with each failure in a row)",
      ),
      error: described(nullable(text()), "Why asking the courier failed this time; null when it answered"),
    }),
  ),
  shipped: described(integer({ minimum: 0 }), "Orders that became Shipped (the courier picked the parcel up)"),
  delivered: described(integer({ minimum: 0 }), "Orders that became Delivered"),
  returned: described(integer({ minimum: 0 }), "Orders marked returned to sender (Cancelled)"),
  attempts: described(integer({ minimum: 0 }), "Failed delivery attempts with a reason, each mailed to its customer"),
  paid: described(
    integer({ minimum: 0 }),
    "Delivered cash-on-delivery parcels whose cash the courier reported paid over (PostEx payment status, Leopards getPaymentDetails)",
  ),
});

/** Booking a parcel with a courier's API, /api/v1/orders/{id}/shipment (docs/api.md, "Couriers"). */
export const shipmentsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "post",
    path: "/orders/:id/shipment",
    tag: "Orders",
    summary:
      "Book a confirmed Pending order's parcel (confirmed by phone or by its customer, or, paid in advance, by its verified payment) with a courier whose settings are on: {courier: \"postex\" | \"leopards\", city?}. The order's number is the reference; the order keeps the courier and tracking number and stays Pending until pickup. When the order's city is not exactly one of the courier's, 400 on city: send `city` as the courier's list names it. Booked already, or a booking under way: 409. The courier refused or did not answer: 502 with its message, the order unchanged; after no answer the booking is in doubt, and the next call first asks the courier whether it booked the parcel, never booking twice",
    access: "admin",
    body: shipmentSchema,
    responseData: orderShape,
    errorStatuses: [400, 404, 409, 502],
    handler: async ({ services, params, body, user }) => ({
      message: "Parcel booked",
      data: await services.shipping.book(params.id, body, user!),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/shipments/sync",
    tag: "Orders",
    summary:
      "Follow every booked parcel now, as the background sync does every COURIER_SYNC_MINUTES: each courier whose settings are on is asked for its parcels not yet delivered or cancelled; new events are stored once and applied to their orders in order (Shipped at pickup, Delivered, returned to sender). A courier that failed recently is left alone until its skippedUntil; one that fails now is reported in error, and the others are still asked",
    access: "admin",
    responseData: syncReportShape,
    handler: async ({ services }) => ({
      message: "Parcels followed",
      data: await services.courierSync.syncAll(),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/orders/:id/shipment",
    tag: "Orders",
    summary:
      "Cancel the order's booking through the courier's cancel call, before pickup (the order still Pending); the order loses its courier and tracking number. No booking, or picked up already: 409; the courier refused or did not answer: 502",
    access: "admin",
    responseData: orderShape,
    errorStatuses: [404, 409, 502],
    handler: async ({ services, params }) => ({
      message: "Booking cancelled",
      data: await services.shipping.cancel(params.id),
    }),
  }),
];
