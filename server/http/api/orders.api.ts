import { defineApiRoute, defineFileRoute, type ApiRoute } from "../api-route";
import { orderListMetaShape, orderShape } from "../../modules/orders/order.shape";
import { paginationShape } from "../../modules/shared/list-query";
import { arrayOf } from "../../modules/shared/shapes";
import { orderListQuerySchema } from "../../modules/orders/orders.schemas";
import { placeOrderSchema, shippingAddressSchema } from "../../flows/checkout.schemas";
import { orderOutcomeSchema, orderStatusSchema } from "../../flows/fulfilment.schemas";
import { paymentReferenceSchema, paymentVerdictSchema } from "../../modules/payments/order-payment";
import { SCREENSHOT_FIELD } from "../../modules/orders/order-values.shared";

/** /api/v1/orders (docs/api.md). */
export const ordersApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "post",
    path: "/orders",
    tag: "Orders",
    summary:
      "Place an order from the cart, which is then empty. An optional phone (a Pakistani mobile number: 03XX-XXXXXXX, 03XXXXXXXXX or +92 3XX XXXXXXX) is the receiver's; without it the profile's phone is used if it is one, else the order has none. An optional discountCode (any case) takes its discount off the goods; a code that is unknown, inactive, not yet started, expired or used up, or a first-order code for a customer with an order that is not Cancelled, is a 400 on discountCode and places nothing; after 20 codes that are not valid in a quarter hour (40 from one client address), any code is a 429 with Retry-After until it ends. An optional language (ur or en) is that of the order's confirmation messages and becomes the account's; without it the account's, else Urdu for an order with a phone. An optional Idempotency-Key header makes a retried request answer the first order instead of making a second. The store's cash-on-delivery rules (GET /settings/orders) may refuse the order: 409 with a top-level code, COD_BLOCKED, COD_LIMIT or COD_OPEN_ORDERS, and the cart stays. An optional paymentMethod: \"Cash on Delivery\" (the default) or \"Bank Transfer\" (paid in advance to the store's account, offered only while the store has set one, else 400 on paymentMethod; the cash-on-delivery rules do not apply to it, the store's discount for paying in advance does): the order's payment is then awaiting until the customer sends the transfer's reference (POST /orders/{id}/payment-reference), and it ships only once an admin verified it.",
    access: "signed-in",
    body: placeOrderSchema
      .pick(["address", "phone", "discountCode", "language", "paymentMethod"])
      .shape({ address: shippingAddressSchema.required("Address is required") }),
    successStatus: 201,
    responseData: orderShape,
    errorStatuses: [409, 429],
    handler: async ({ services, user, body, req }) => {
      const order = await services.checkout.placeOrder(user!._id, withHeaderKey(body, req.get("Idempotency-Key")), {
        client: { ip: req.ip ?? "" },
      });
      return { message: "Order placed successfully", data: order };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders/me",
    tag: "Orders",
    summary:
      "The caller's orders, newest first (page, limit up to 1000, status), with pagination and meta as GET /orders",
    access: "signed-in",
    query: orderListQuerySchema,
    responseData: arrayOf(orderShape),
    responseExtras: { pagination: paginationShape, meta: orderListMetaShape },
    handler: async ({ services, user, query }) => {
      const { orders, pagination, meta } = await services.orders.listMyOrders(user!._id, query);
      return { message: "OK", data: orders, pagination, meta };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders",
    tag: "Orders",
    summary: "Every order, newest first (page, limit up to 1000, status); meta.totalAmount excludes Cancelled orders",
    access: "admin",
    query: orderListQuerySchema,
    responseData: arrayOf(orderShape),
    responseExtras: { pagination: paginationShape, meta: orderListMetaShape },
    handler: async ({ services, query }) => {
      const { orders, pagination, meta } = await services.orders.listOrders(query);
      return { message: "OK", data: orders, pagination, meta };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders/:id",
    tag: "Orders",
    summary: "One order, for its owner or an admin (anyone else: 404)",
    access: "signed-in",
    responseData: orderShape,
    errorStatuses: [404],
    handler: async ({ services, user, params }) => ({
      message: "OK",
      data: await services.orders.getOrder(user!, params.id),
    }),
  }),
  defineApiRoute({
    method: "patch",
    path: "/orders/:id/status",
    tag: "Orders",
    summary:
      "Set the status (any of the four from any state); a bank-transfer order becomes Shipped or Delivered only once its payment is verified (else 409). Cancelled returns the stock, leaving Cancelled claims it again. With Shipped, optionally the courier and the tracking number (given with another status: 400); both are kept when the status changes later",
    access: "admin",
    body: orderStatusSchema,
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, body }) => ({
      message: "Order status updated",
      data: await services.fulfilment.updateStatus(params.id, body),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/orders/:id/cancel",
    tag: "Orders",
    summary:
      "The customer cancels their own order: only while it is Pending and less than 2 hours old (else 409 with the reason); the stock comes back. Anyone else's order: 404 (admins change the status instead)",
    access: "signed-in",
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, user }) => ({
      message: "Order cancelled",
      data: await services.cancellation.cancelOwnOrder(user!._id, params.id),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/orders/:id/confirm",
    tag: "Orders",
    summary:
      "Record that the order was confirmed with the customer by phone (sets confirmedAt). Only a Pending cash-on-delivery order (else 409: an order paid in advance is confirmed by its verified payment); confirming again answers the order unchanged",
    access: "admin",
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, user }) => ({
      message: "Order confirmed",
      data: await services.fulfilment.confirmOrder(params.id, user!),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/orders/:id/payment-reference",
    tag: "Orders",
    summary:
      "The customer sends the transaction reference of the bank transfer or Raast payment for their own order: {reference} (letters, digits, spaces, dashes, slashes; at most 60) as JSON, or as multipart/form-data with an optional screenshot of the transfer in the field screenshot (one image, checked like a product's photo: over 10 MB 413, not an image 400 on screenshot, and nothing is changed). The payment becomes submitted, for an admin to verify, and payment.screenshot says whether a screenshot was sent (a new one replaces the old; a reference sent again without one keeps it); the screenshot itself is private to the order's owner and admins. It may be sent again until it is verified (after a rejection too). An order paid on delivery, cancelled, or already verified: 409. Anyone else's order: 404",
    access: "signed-in",
    body: paymentReferenceSchema,
    photosWithBody: 1,
    photoField: SCREENSHOT_FIELD,
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, user, body, upload }) => ({
      message: "Payment reference received",
      data: await services.advancePayment.submitReference(user!._id, params.id, body, upload?.photos ?? []),
    }),
  }),
  defineFileRoute({
    method: "get",
    path: "/orders/:id/payment-screenshot",
    tag: "Orders",
    summary:
      "The screenshot of the transfer sent with the order's reference (payment.screenshot true), as WebP, for the order's owner and admins; anyone else, an order without a screenshot or no such order: 404. Answered private, no-store: it shows the customer's bank and balance",
    access: "signed-in",
    file: { contentType: "image/webp", description: "The screenshot, re-encoded as WebP without its metadata" },
    errorStatuses: [404],
    // The page's /orders/{id}/payment-screenshot asks the same, so who may see it is decided once.
    handler: ({ services, params, user }) => services.advancePayment.screenshot(user, params.id, "full"),
  }),
  defineApiRoute({
    method: "patch",
    path: "/orders/:id/payment",
    tag: "Orders",
    summary:
      'An admin\'s verdict on a bank-transfer order\'s payment: {status: "verified"} records the order\'s total as received, now (the order may then ship); {status: "rejected", reason} (a submitted reference only) tells the customer why, and they may send another. An order paid on delivery, cancelled, or already verified, or a rejection without a submitted reference: 409',
    access: "admin",
    body: paymentVerdictSchema,
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, body }) => ({
      message: "Payment updated",
      data: await services.advancePayment.review(params.id, body),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/orders/:id/outcome",
    tag: "Orders",
    summary:
      'Record that the courier brought a Shipped order\'s parcel back: {kind: "returned", reason}, the reason one of "Refused at the door", "Customer not reachable", "Wrong address", "Other". The order becomes Cancelled with its outcome; the customer is not mailed; its stock comes back only with POST /orders/{id}/received-back. Any other status: 409',
    access: "admin",
    body: orderOutcomeSchema,
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, body }) => ({
      message: "Order marked returned to sender",
      data: await services.fulfilment.recordOutcome(params.id, body),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/orders/:id/received-back",
    tag: "Orders",
    summary:
      "Record that an order returned to sender is back in the store: its watches go back in stock, once. An order not returned to sender, or received back already: 409",
    access: "admin",
    responseData: orderShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params }) => ({
      message: "Parcel received back",
      data: await services.fulfilment.receiveBack(params.id),
    }),
  }),
];

/**
 * The order's input with the Idempotency-Key header as its key (the checkout form sends its key
 * as a field). A body that is not a JSON object is passed as it is, for the operation to refuse.
 */
function withHeaderKey(body: unknown, key: string | undefined): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return { ...body, idempotencyKey: key ?? "" };
}
