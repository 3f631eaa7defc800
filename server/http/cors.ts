import type { RequestHandler } from "express";

/**
 * Only the origins in CORS_ORIGINS may call the API from a browser, with the Authorization
 * header. Others get no CORS headers, so their browsers withhold the answer.
 */
export function apiCors(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => origin.replace(/\/$/, "")));
  return (req, res, next) => {
    res.vary("Origin");
    const origin = req.get("origin");
    if (origin && allowed.has(origin)) {
      res.set("Access-Control-Allow-Origin", origin);
      // ETag and If-None-Match: the API's conditional reads (docs/api.md); Idempotency-Key: POST /orders.
      res.set("Access-Control-Expose-Headers", "Retry-After, ETag");
      if (req.method === "OPTIONS") {
        res.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
        res.set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, Idempotency-Key");
        res.set("Access-Control-Max-Age", "600");
        res.status(204).end();
        return;
      }
    } else if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    next();
  };
}
