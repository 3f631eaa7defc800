import { defineApiRoute, type ApiRoute } from "../api-route";
import { returnShape } from "../../modules/orders/return.shape";
import { returnListQuerySchema, returnRequestSchema, returnUpdateSchema } from "../../modules/orders/returns.schemas";
import { paginationShape } from "../../modules/shared/list-query";
import { arrayOf } from "../../modules/shared/shapes";

/** Returns (docs/api.md, "Returns"): the customer asks, the admins move them on. */
export const returnsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "post",
    path: "/orders/:id/returns",
    tag: "Returns",
    summary:
      "Ask to return items of one's own delivered order (anyone else: 404): items [{productId, quantity}], a reason, an optional note of up to 500 characters. Not Delivered: 409; 7 days or more since delivery: 409; a return still open: 409; a quantity above what was ordered less earlier returns: 400",
    access: "signed-in",
    body: returnRequestSchema,
    successStatus: 201,
    responseData: returnShape,
    errorStatuses: [404, 409],
    handler: async ({ services, user, params, body }) => ({
      message: "Return requested",
      data: await services.returns.requestReturn(user!._id, params.id, body),
    }),
  }),
  defineApiRoute({
    method: "get",
    path: "/returns",
    tag: "Returns",
    summary: "Every return, newest first (page, limit default 20 and at most 100, status)",
    access: "admin",
    query: returnListQuerySchema,
    responseData: arrayOf(returnShape),
    responseExtras: { pagination: paginationShape },
    handler: async ({ services, query }) => {
      const { returns, pagination } = await services.returnDesk.listReturns(query);
      return { message: "OK", data: returns, pagination };
    },
  }),
  defineApiRoute({
    method: "patch",
    path: "/returns/:id",
    tag: "Returns",
    summary:
      "Move a return on: Requested → Approved, or Rejected with rejectionReason (the customer reads it); Approved → Received with refund {method: Cash, Bank transfer, JazzCash or Easypaisa, reference}, which puts the returned units back in stock once. Any other move: 409",
    access: "admin",
    body: returnUpdateSchema,
    responseData: returnShape,
    errorStatuses: [404, 409],
    handler: async ({ services, params, body }) => ({
      message: "Return updated",
      data: await services.returns.updateReturn(params.id, body),
    }),
  }),
];
