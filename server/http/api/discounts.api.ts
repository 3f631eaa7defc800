import { defineApiRoute, type ApiRoute } from "../api-route";
import { discountShape } from "../../modules/discounts/discount.shape";
import { discountInputSchema } from "../../modules/discounts/discounts.schemas";
import { arrayOf } from "../../modules/shared/shapes";

/** /api/v1/discounts (docs/api.md, "Discount codes"): admins only; codes are never deleted. */
export const discountsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/discounts",
    tag: "Discount codes",
    summary: "Every discount code, newest first, with its use count",
    access: "admin",
    responseData: arrayOf(discountShape),
    handler: async ({ services }) => ({ message: "OK", data: await services.discounts.listCodes() }),
  }),
  defineApiRoute({
    method: "post",
    path: "/discounts",
    tag: "Discount codes",
    summary:
      "Create a code: code (3 to 20 letters and digits, stored in capitals, unique: 409 when taken), type percent (value 1 to 90) or fixed (value in rupees, above 0), firstOrderOnly, active, and optional startsAt, endsAt (ISO 8601 with a zone) and maxUses",
    access: "admin",
    body: discountInputSchema,
    successStatus: 201,
    responseData: discountShape,
    errorStatuses: [409],
    handler: async ({ services, body }) => ({
      message: "Discount code created",
      data: await services.discounts.createCode(body),
    }),
  }),
  defineApiRoute({
    method: "put",
    path: "/discounts/:id",
    tag: "Discount codes",
    summary:
      "Replace a code's fields (as POST); usedCount is read-only. Orders placed with it keep the code and amount they had",
    access: "admin",
    body: discountInputSchema,
    responseData: discountShape,
    errorStatuses: [404, 409],
    handler: async ({ services, body, params }) => ({
      message: "Discount code updated",
      data: await services.discounts.updateCode(params.id, body),
    }),
  }),
];
