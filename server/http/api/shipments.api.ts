import { defineApiRoute, type ApiRoute } from "../api-route";
import { orderShape } from "../../modules/orders/order.shape";
import { shipmentSchema } from "../../flows/shipping";

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
