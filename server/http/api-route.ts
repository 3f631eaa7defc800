import type { Request, Response } from "express";
import type * as yup from "yup";
import type { Shape } from "../modules/shared/shapes";
import type { EnvelopeExtras, SuccessEnvelope } from "./envelope";
import type { Services } from "../start-up/services";
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

export type ApiHandlerContext = {
  req: Request;
  res: Response;
  services: Services;
  /** The signed-in caller; never null on "signed-in" and "admin" routes. */
  user: ApiUser | null;
  /**
   * The JSON body and the query string as sent: the operation the handler calls validates them,
   * once, with the schema the route names for the OpenAPI document (`body`, `query`).
   */
  body: unknown;
  query: unknown;
  params: Record<string, string>;
  /**
   * The form of a route that takes photos (`photoUpload`, `photosWithBody`), read from the request
   * only when called (once; later calls answer the same): multipart/form-data's text fields and
   * photos, or for `photosWithBody` a JSON body as the fields and no photos. The operation calls it
   * once it has authorised the caller for the order or the review, so that nobody's upload is read
   * for what is not theirs (docs/decisions/2026-11-29-uploads-authorised-first.md). Elsewhere it
   * answers the JSON body and no photos.
   */
  readForm: () => Promise<PhotoForm>;
};

export type ApiRoute = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path below /api/v1, e.g. "/products/:id". */
  path: string;
  tag: string;
  summary: string;
  access: ApiAccess;
  /**
   * The body's schema, as the OpenAPI document describes it: the one the handler's operation
   * validates with (with the API's own rules, if it adds any). The router does not validate it
   * again (docs/decisions/2026-11-25-one-schema-per-input.md).
   */
  body?: yup.AnyObjectSchema;
  /**
   * The call takes a photo as multipart/form-data in the field `image` instead of a JSON body
   * (photo-upload.ts): the only kind of API call that does.
   */
  photoUpload?: boolean;
  /**
   * The call takes its `body` as JSON, or as multipart/form-data: the body's fields as text parts
   * and up to this many photos in the field `image` (a review's photos). The handler hands
   * `readForm` to its operation, which reads fields and photos from it after authorising the caller.
   */
  photosWithBody?: number;
  /** The multipart field of `photosWithBody`'s files, if not `image` (a transfer's `screenshot`). */
  photoField?: string;
  /** The query string's schema, for the OpenAPI document; validated by the handler's operation, as `body`. */
  query?: yup.AnyObjectSchema;
  /** Status of a success, 200 unless said. */
  successStatus?: number;
  /** The shape of `data` in a success (null when the call answers none). */
  responseData?: Shape<unknown>;
  /** What a success carries beside `data`: a list's `pagination`, its `meta` (none unless said). */
  responseExtras?: EnvelopeExtras;
  /** Other statuses this call may answer, for the OpenAPI document. */
  errorStatuses?: number[];
  /**
   * The call answers a private file instead of the envelope (defineFileRoute): its media type and
   * what it is, for the OpenAPI document. Its refusals are still the error envelope.
   */
  file?: { contentType: string; description: string };
  /** The envelope's content; a file route's handler answers the file's bytes. */
  handler: (ctx: ApiHandlerContext) => Promise<ApiResult | Buffer>;
};

/** Keeps a route's answer tied to its shapes: `data` to responseData, the extras to responseExtras. */
export function defineApiRoute<D = null, E extends EnvelopeExtras = Record<never, never>>(
  route: Omit<ApiRoute, "handler" | "responseData" | "responseExtras"> & {
    responseData?: Shape<D>;
    responseExtras?: E;
    handler: (ctx: ApiHandlerContext) => Promise<ApiResult<D, E>>;
  },
): ApiRoute {
  return route as ApiRoute;
}

/**
 * A call that answers a private file (a transfer's screenshot) rather than the envelope: the
 * handler answers its bytes, sent with the route's media type and never stored by a cache
 * (server/http/api-router.ts).
 */
export function defineFileRoute(
  route: Omit<ApiRoute, "handler" | "responseData" | "responseExtras" | "file"> & {
    file: NonNullable<ApiRoute["file"]>;
    handler: (ctx: ApiHandlerContext) => Promise<Buffer>;
  },
): ApiRoute {
  return route;
}
