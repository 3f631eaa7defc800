import { defineApiRoute, type ApiRoute } from "../../http/api-route";
import { absoluteUrl } from "../catalog/product.model";
import { ORDER_STATUSES, PAYMENT_METHOD } from "./order-values";
import { orderListQuerySchema, orderStatusSchema, placeOrderSchema, shippingAddressSchema } from "./orders.schemas";
import type { PublicOrder } from "./orders.service";

const addressSchema = {
  type: "object",
  properties: {
    street: { type: "string" },
    city: { type: "string" },
    state: { type: "string" },
    zipCode: { type: "string" },
    country: { type: "string" },
  },
};

const orderSchema = {
  type: "object",
  properties: {
    _id: { type: "string", format: "uuid" },
    user: {
      type: "object",
      properties: { _id: { type: ["string", "null"] }, name: { type: "string" }, email: { type: "string" } },
    },
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          product: {
            type: "object",
            description: "As ordered: name and image are kept after the product is edited or deleted (then _id is null)",
            properties: { _id: { type: ["string", "null"] }, name: { type: "string" }, imageUrl: { type: "string" } },
          },
          quantity: { type: "integer" },
          price: { type: "number", description: "Unit price when ordered" },
        },
      },
    },
    address: addressSchema,
    totalPrice: { type: "number" },
    status: { type: "string", enum: ORDER_STATUSES },
    paymentMethod: { type: "string", enum: [PAYMENT_METHOD] },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
};

function forApiClients(order: PublicOrder, publicUrl: string): PublicOrder {
  return {
    ...order,
    items: order.items.map((item) => ({ ...item, product: { ...item.product, imageUrl: absoluteUrl(item.product.imageUrl, publicUrl) } })),
  };
}

/** /api/v1/orders (API.md). */
export const ordersApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "post",
    path: "/orders",
    tag: "Orders",
    summary:
      "Place a cash-on-delivery order from the cart, which is then empty. An optional Idempotency-Key header makes a retried request answer the first order instead of making a second.",
    access: "signed-in",
    body: placeOrderSchema.pick(["address"]).shape({ address: shippingAddressSchema.required("Address is required") }),
    successStatus: 201,
    responseData: orderSchema,
    errorStatuses: [409],
    handler: async ({ services, user, body, req, publicUrl }) => {
      const order = await services.orders.placeOrder(user!._id, {
        address: body.address,
        idempotencyKey: req.get("Idempotency-Key") ?? "",
      });
      return { message: "Order placed successfully", data: forApiClients(order, publicUrl) };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders/me",
    tag: "Orders",
    summary: "The caller's orders, newest first (page, limit up to 1000, status), with pagination and meta as GET /orders",
    access: "signed-in",
    query: orderListQuerySchema,
    responseData: { type: "array", items: orderSchema },
    handler: async ({ services, user, query, publicUrl }) => {
      const { orders, pagination, meta } = await services.orders.listMyOrders(user!._id, query);
      return { message: "OK", data: orders.map((order) => forApiClients(order, publicUrl)), pagination, meta };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders",
    tag: "Orders",
    summary: "Every order, newest first (page, limit up to 1000, status); meta.totalAmount excludes Cancelled orders",
    access: "admin",
    query: orderListQuerySchema,
    responseData: { type: "array", items: orderSchema },
    handler: async ({ services, query, publicUrl }) => {
      const { orders, pagination, meta } = await services.orders.listOrders(query);
      return { message: "OK", data: orders.map((order) => forApiClients(order, publicUrl)), pagination, meta };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/orders/:id",
    tag: "Orders",
    summary: "One order, for its owner or an admin (anyone else: 404)",
    access: "signed-in",
    responseData: orderSchema,
    errorStatuses: [404],
    handler: async ({ services, user, params, publicUrl }) => ({
      message: "OK",
      data: forApiClients(await services.orders.getOrder(user!, params.id), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "patch",
    path: "/orders/:id/status",
    tag: "Orders",
    summary: "Set the status (any of the four from any state); Cancelled returns the stock, leaving Cancelled claims it again",
    access: "admin",
    body: orderStatusSchema,
    responseData: orderSchema,
    errorStatuses: [404, 409],
    handler: async ({ services, params, body, publicUrl }) => ({
      message: "Order status updated",
      data: forApiClients(await services.orders.updateStatus(params.id, body), publicUrl),
    }),
  }),
];
