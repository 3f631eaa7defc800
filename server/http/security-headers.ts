import crypto from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      cspNonce: string;
    }
  }
}

/**
 * Security headers. The Content-Security-Policy admits only the site's own scripts: the inline
 * scripts that React Router writes into each page carry a per-request nonce.
 */
export function securityHeaders(options: { development: boolean }): RequestHandler[] {
  const nonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as unknown as { locals: Express.Locals }).locals.cspNonce}'`,
        ],
        // Vite injects styles from JavaScript while developing; the built site uses files only.
        "style-src": options.development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": options.development ? ["'self'", "ws://127.0.0.1:*", "ws://localhost:*"] : ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
      },
    },
    // Images from https hosts are allowed (product images); they need no CORP handshake.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  return [nonce, headers];
}
