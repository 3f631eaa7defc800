import type { RequestHandler } from "express";

/** Page forms are small; anything larger is refused before React Router reads it. */
export const PAGE_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * What a page may be posted: a form, urlencoded (what every form of the store sends, with
 * JavaScript or without), of a known and small length. Actions read the body with
 * request.formData(), which throws on any other content type or on a broken multipart body:
 * that was a 500 for the client's mistake (found by tests/integration/hostile-input). And a body
 * sent in chunks has no Content-Length to check, so it would be read whole, however large.
 */
export function pageFormPosts(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) {
      res.status(411).type("text/plain").send("Forms must be sent with a Content-Length");
      return;
    }
    if (Number(length ?? 0) > PAGE_BODY_LIMIT_BYTES) {
      res.status(413).type("text/plain").send("Request body is too large");
      return;
    }
    const type = (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      res.status(415).type("text/plain").send("Forms must be sent as application/x-www-form-urlencoded");
      return;
    }
    next();
  };
}
