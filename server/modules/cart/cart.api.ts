import { defineApiRoute, type ApiRoute } from "../../http/api-route";
import { absoluteUrl } from "../catalog/product.model";
import { cartLineSchema } from "./cart.schemas";
import type { CartWithTotal } from "./cart.service";

const cartSchema = {
  type: "object",
  properties: {
    cart: {
      type: "object",
      properties: {
        _id: { type: ["string", "null"], format: "uuid" },
        user: { type: "string", format: "uuid" },
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              product: {
                type: "object",
                properties: {
                  _id: { type: "string", format: "uuid" },
                  name: { type: "string" },
                  price: { type: "number" },
                  imageUrl: { type: "string" },
                  stock: { type: "integer" },
                },
              },
              quantity: { type: "integer", minimum: 1 },
            },
          },
        },
        createdAt: { type: ["string", "null"], format: "date-time" },
        updatedAt: { type: ["string", "null"], format: "date-time" },
      },
    },
    total: { type: "number", description: "Sum of current price × quantity, in rupees" },
  },
};

/** Image addresses made absolute for clients on other origins (RULINGS). */
function forApiClients({ cart, total }: CartWithTotal, publicUrl: string): CartWithTotal {
  return {
    cart: {
      ...cart,
      items: cart.items.map((line) => ({ ...line, product: { ...line.product, imageUrl: absoluteUrl(line.product.imageUrl, publicUrl) } })),
    },
    total,
  };
}

/** /api/v1/cart (API.md): the signed-in caller's own cart. */
export const cartApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/cart",
    tag: "Cart",
    summary: "The caller's cart and its total (an empty cart when none yet)",
    access: "signed-in",
    responseData: cartSchema,
    handler: async ({ services, user, publicUrl }) => ({
      message: "OK",
      data: forApiClients(await services.cart.getCart(user!._id), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/cart",
    tag: "Cart",
    summary: "Add a quantity of a product (added to its line when present)",
    access: "signed-in",
    body: cartLineSchema,
    responseData: cartSchema,
    errorStatuses: [404, 409],
    handler: async ({ services, user, body, publicUrl }) => ({
      message: "Item added to cart",
      data: forApiClients(await services.cart.addItem(user!._id, body), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "put",
    path: "/cart",
    tag: "Cart",
    summary: "Set the quantity of a line",
    access: "signed-in",
    body: cartLineSchema,
    responseData: cartSchema,
    errorStatuses: [404, 409],
    handler: async ({ services, user, body, publicUrl }) => ({
      message: "Cart updated",
      data: forApiClients(await services.cart.setQuantity(user!._id, body), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/cart/items/:productId",
    tag: "Cart",
    summary: "Remove a line (removing a line that is not there changes nothing)",
    access: "signed-in",
    responseData: cartSchema,
    handler: async ({ services, user, params, publicUrl }) => ({
      message: "Item removed from cart",
      data: forApiClients(await services.cart.removeItem(user!._id, params.productId), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/cart",
    tag: "Cart",
    summary: "Empty the cart",
    access: "signed-in",
    responseData: cartSchema,
    handler: async ({ services, user, publicUrl }) => ({
      message: "Cart cleared",
      data: forApiClients(await services.cart.clear(user!._id), publicUrl),
    }),
  }),
];
