import type { Request, Response } from "express";
import type * as yup from "yup";
import type { Shape } from "../modules/shared/shapes";
import type { EnvelopeExtras, SuccessEnvelope } from "./envelope";
import type { Services } from "../services";
import type { ApiUser } from "./bearer-auth";
import type { PhotoForm } from "./photo-upload";

/**
 * One /api/v1 call, described once: the router mounts it, the OpenAPI document describes it
 * (with the shape of its `data`, the same shape that types what the handler answers), and the
 * authorization tests read its access level from here.
 */
export type ApiAccess = "public" | "signed-in" | "admin";

/** What a handler answers: the success envelope (server/http/envelope.ts) less `success`, and its status if not the route's. */
export type ApiResult<D = unknown, E extends EnvelopeExtras = EnvelopeExtras> = { status?: number } & Omit<
  SuccessEnvelope<D, E>,
  "success"
>;

export type ApiHandlerContext<B, Q> = {
  req: Request;
  res: Response;
  services: Services;
  /** The signed-in caller; never null on "signed-in" and "admin" routes. */
  user: ApiUser | null;
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The multipart form of a route that takes a photo (`photoUpload`); null elsewhere. */
  upload: PhotoForm | null;
};

export type ApiRoute = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path below /api/v1, e.g. "/products/:id". */
  path: string;
  tag: string;
  summary: string;
  access: ApiAccess;
  body?: yup.AnyObjectSchema;
  /**
   * The call takes a photo as multipart/form-data in the field `image` instead of a JSON body
   * (photo-upload.ts): the only kind of API call that does.
   */
  photoUpload?: boolean;
  query?: yup.AnyObjectSchema;
  /** Status of a success, 200 unless said. */
  successStatus?: number;
  /** The shape of `data` in a success (null when the call answers none). */
  responseData?: Shape<unknown>;
  /** What a success carries beside `data`: a list's `pagination`, its `meta` (none unless said). */
  responseExtras?: EnvelopeExtras;
  /** Other statuses this call may answer, for the OpenAPI document. */
  errorStatuses?: number[];
  handler: (ctx: ApiHandlerContext<unknown, unknown>) => Promise<ApiResult>;
};

/** Keeps the body and query types of a route tied to its schemas, and its answer to its shapes. */
export function defineApiRoute<
  BS extends yup.AnyObjectSchema | undefined = undefined,
  QS extends yup.AnyObjectSchema | undefined = undefined,
  D = null,
  E extends EnvelopeExtras = Record<never, never>,
>(
  route: Omit<ApiRoute, "handler" | "body" | "query" | "responseData" | "responseExtras"> & {
    body?: BS;
    query?: QS;
    responseData?: Shape<D>;
    responseExtras?: E;
    handler: (
      ctx: ApiHandlerContext<
        BS extends yup.AnyObjectSchema ? yup.InferType<BS> : undefined,
        QS extends yup.AnyObjectSchema ? yup.InferType<QS> : undefined
      >,
    ) => Promise<ApiResult<D, E>>;
  },
): ApiRoute {
  return route as ApiRoute;
}
