import express, { type Router } from "express";
import {
  ForbiddenError,
  SIGN_IN_NEEDED,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from "../modules/shared/errors.shared";
import { photoTooLarge } from "../modules/catalog/photo-processing";
import { PHOTO_FIELD } from "../modules/catalog/photo-values.shared";
import type { Services } from "../start-up/services";
import { apiErrorHandler } from "./api-errors";
import type { ApiRoute } from "./api-route";
import { withAbsoluteImageUrls } from "./api-image-urls";
import { bearerAuth } from "./bearer-auth";
import { apiCors } from "./cors";
import { failure, ok } from "./envelope";
import { buildOpenApiDocument } from "./openapi";
import { PHOTO_REQUEST_MAX_BYTES, readMultipartPhotoForm, type PhotoForm } from "./photo-upload";

export const API_BODY_LIMIT = "10kb";

/**
 * /api/v1: JSON in (at most 10 kB), the envelope out, bearer tokens only (never the session
 * cookie), CORS for the configured origins, and a JSON 404 for unknown paths.
 */
export function createApiRouter(options: {
  routes: ApiRoute[];
  services: Services;
  corsOrigins: string[];
  siteName: string;
  publicUrl: string;
}): Router {
  const router = express.Router();
  router.use(apiCors(options.corsOrigins));
  // An answer to a caller with a token, or to a change, is never stored by any cache. A read
  // without a token is the same for everyone (the API never reads cookies): caches may keep it
  // but must ask again before using it.
  router.use((req, res, next) => {
    const anonymousRead = (req.method === "GET" || req.method === "HEAD") && req.headers.authorization === undefined;
    res.set("Cache-Control", anonymousRead ? "no-cache" : "no-store");
    next();
  });
  router.use(express.json({ limit: API_BODY_LIMIT, strict: true }));

  const openApiDocument = buildOpenApiDocument(options.routes, {
    title: options.siteName,
    serverUrl: options.publicUrl,
  });
  router.get("/openapi.json", (_req, res) => {
    res.json(openApiDocument);
  });

  router.use(bearerAuth(options.services));

  for (const route of options.routes) {
    router[route.method](route.path, async (req, res, next) => {
      try {
        const user = req.apiAuth?.user ?? null;
        if (route.access !== "public" && !user) throw new UnauthorizedError(SIGN_IN_NEEDED);
        if (route.access === "admin" && user?.role !== "admin") {
          throw new ForbiddenError("Not authorized as an admin");
        }
        // A body with photos is read only when the operation asks, once it has authorised the caller.
        let form: Promise<PhotoForm> | null = null;
        const readForm = () =>
          (form ??=
            route.photoUpload || (route.photosWithBody && isMultipart(req))
              ? readPhotoUpload(req, route.photoField)
              : Promise.resolve({ fields: req.body ?? {}, photo: null, photos: [] }));
        const result = await route.handler({
          req,
          res,
          services: options.services,
          user,
          // Validated by the operation the handler calls, once (api-route.ts); a multipart body's
          // fields come with readForm.
          body: req.body,
          query: req.query,
          params: req.params as Record<string, string>,
          readForm,
        });
        if (Buffer.isBuffer(result)) {
          res
            .status(route.successStatus ?? 200)
            .type(route.file!.contentType)
            .set("Cache-Control", "private, no-store")
            .send(result);
          return;
        }
        const { status, message, data, ...extra } = result;
        res
          .status(status ?? route.successStatus ?? 200)
          .json(ok(withAbsoluteImageUrls(data, options.publicUrl), message, extra));
      } catch (error) {
        next(error);
      }
    });
  }

  router.use((req, res) => {
    res.status(404).json(failure(`Not found - ${req.originalUrl.split("?")[0]}`));
  });
  router.use(apiErrorHandler);
  return router;
}

function isMultipart(req: express.Request): boolean {
  return /^multipart\/form-data\b/i.test(req.get("content-type") ?? "");
}

/** A photo call's body: multipart/form-data (else 415), at most PHOTO_REQUEST_MAX_BYTES (else 413). */
async function readPhotoUpload(req: express.Request, fileField: string = PHOTO_FIELD): Promise<PhotoForm> {
  const contentType = req.get("content-type") ?? "";
  if (!isMultipart(req)) {
    throw new UnsupportedMediaTypeError(`Send the photo as multipart/form-data, in the field "${PHOTO_FIELD}"`);
  }
  if (Number(req.get("content-length") ?? 0) > PHOTO_REQUEST_MAX_BYTES) throw photoTooLarge();
  return readMultipartPhotoForm(req, contentType, fileField);
}
