import type { Request, Response } from "express";
import type * as yup from "yup";
import type { Services } from "../services";
import type { ApiUser } from "./bearer-auth";

/**
 * One /api/v1 call, described once: the router mounts it, the OpenAPI document describes it,
 * and the authorization tests read its access level from here.
 */
export type ApiAccess = "public" | "signed-in" | "admin";

export type ApiResult = {
  status?: number;
  message: string;
  data: unknown;
  pagination?: unknown;
  meta?: unknown;
};

export type ApiHandlerContext<B, Q> = {
  req: Request;
  res: Response;
  services: Services;
  /** The site's public address, to make site paths absolute for clients on other origins. */
  publicUrl: string;
  /** The signed-in caller; never null on "signed-in" and "admin" routes. */
  user: ApiUser | null;
  body: B;
  query: Q;
  params: Record<string, string>;
};

export type ApiRoute<B = unknown, Q = unknown> = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path below /api/v1, e.g. "/products/:id". */
  path: string;
  tag: string;
  summary: string;
  access: ApiAccess;
  body?: yup.AnyObjectSchema;
  query?: yup.AnyObjectSchema;
  /** Status of a success, 200 unless said. */
  successStatus?: number;
  /** JSON Schema of `data` in a success, for the OpenAPI document. */
  responseData?: Record<string, unknown>;
  /** Other statuses this call may answer, for the OpenAPI document. */
  errorStatuses?: number[];
  handler: (ctx: ApiHandlerContext<B, Q>) => Promise<ApiResult>;
};

/** Keeps the body and query types of a route tied to its schemas. */
export function defineApiRoute<
  BS extends yup.AnyObjectSchema | undefined = undefined,
  QS extends yup.AnyObjectSchema | undefined = undefined,
>(
  route: Omit<ApiRoute, "handler" | "body" | "query"> & {
    body?: BS;
    query?: QS;
    handler: (
      ctx: ApiHandlerContext<
        BS extends yup.AnyObjectSchema ? yup.InferType<BS> : undefined,
        QS extends yup.AnyObjectSchema ? yup.InferType<QS> : undefined
      >,
    ) => Promise<ApiResult>;
  },
): ApiRoute {
  return route as ApiRoute;
}
