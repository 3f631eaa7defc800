import type { RequestHandler } from "express";

/** Page forms are small; anything larger is refused before React Router reads it. */
export const PAGE_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The product form's pages (Add and Edit), the review form (its photos) and the customer's order
 * page (a transfer's screenshot), with their `.data` twins for client navigation: the only pages
 * that take photos, as multipart/form-data up to PHOTO_FORM_MAX_BYTES, read by their action after
 * its guard (photo-upload.ts).
 */
export const PHOTO_FORM_PAGES =
  /^\/(?:admin\/products\/(?:new|[^/]+\/edit)|products\/[^/]+\/review|my-orders\/[^/]+)(?:\.data|\/_\.data|\/)?$/;
/**
 * A photo of up to 10 MB with its form (a review's three: 30 MB); a larger one is still read (and
 * dropped) up to here, to be refused beside its field.
 */
export const PHOTO_FORM_MAX_BYTES = 32 * 1024 * 1024;

/**
 * What a page may be posted: a form, urlencoded (what every form of the store sends, with
 * JavaScript or without), of a known and small length; the product form's pages also take
 * multipart/form-data with a photo. Actions read the body with request.formData(), which
 * throws on any other content type or on a broken multipart body: that was a 500 for the
 * client's mistake (found by tests/integration/hostile-input). And a body sent in chunks has no
 * Content-Length to check, so it would be read whole, however large.
 */
export function pageFormPosts(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) {
      res.status(411).type("text/plain").send("Forms must be sent with a Content-Length");
      return;
    }
    const type = (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const photoForm = type === "multipart/form-data" && PHOTO_FORM_PAGES.test(req.path);
    if (Number(length ?? 0) > (photoForm ? PHOTO_FORM_MAX_BYTES : PAGE_BODY_LIMIT_BYTES)) {
      res
        .status(413)
        .type("text/plain")
        .send(photoForm ? "The photo must be at most 10 MB" : "Request body is too large");
      return;
    }
    if (type !== "application/x-www-form-urlencoded" && !photoForm) {
      res.status(415).type("text/plain").send("Forms must be sent as application/x-www-form-urlencoded");
      return;
    }
    if (photoForm) {
      // An action may answer before it reads its photos: another customer's order is a 404 with
      // the upload unread (docs/decisions/2026-11-29-uploads-authorised-first.md). Once the answer
      // is sent, what is left of the body is read and dropped (React Router's request stream no
      // longer wants it), so the connection can carry the next request.
      res.once("finish", () => {
        if (req.complete) return;
        req.removeAllListeners("data");
        req.resume();
      });
    }
    next();
  };
}
