import { defineApiRoute, type ApiRoute } from "../api-route";
import { cartLineSchema } from "../../modules/cart/cart.schemas";
import { cartWithTotalShape } from "../../modules/cart/cart.shape";

/** /api/v1/cart (docs/api.md): the signed-in caller's own cart. */
export const cartApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/cart",
    tag: "Cart",
    summary: "The caller's cart and its total (an empty cart when none yet)",
    access: "signed-in",
    responseData: cartWithTotalShape,
    handler: async ({ services, user }) => ({
      message: "OK",
      data: await services.cart.getCart(user!._id),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/cart",
    tag: "Cart",
    summary: "Add a quantity of a product (added to its line when present)",
    access: "signed-in",
    body: cartLineSchema,
    responseData: cartWithTotalShape,
    errorStatuses: [404, 409],
    handler: async ({ services, user, body }) => ({
      message: "Item added to cart",
      data: await services.cart.addItem(user!._id, body),
    }),
  }),
  defineApiRoute({
    method: "put",
    path: "/cart",
    tag: "Cart",
    summary: "Set the quantity of a line",
    access: "signed-in",
    body: cartLineSchema,
    responseData: cartWithTotalShape,
    errorStatuses: [404, 409],
    handler: async ({ services, user, body }) => ({
      message: "Cart updated",
      data: await services.cart.setQuantity(user!._id, body),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/cart/items/:productId",
    tag: "Cart",
    summary: "Remove a line (removing a line that is not there changes nothing)",
    access: "signed-in",
    responseData: cartWithTotalShape,
    handler: async ({ services, user, params }) => ({
      message: "Item removed from cart",
      data: await services.cart.removeItem(user!._id, params.productId),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/cart",
    tag: "Cart",
    summary: "Empty the cart",
    access: "signed-in",
    responseData: cartWithTotalShape,
    handler: async ({ services, user }) => ({
      message: "Cart cleared",
      data: await services.cart.clear(user!._id),
    }),
  }),
];
