import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
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
 *
 * Helmet chooses the other headers; they are the same for every answer, so helmet runs once, at
 * start, and its headers are set on each answer from that list (running helmet's dozen
 * middlewares for every request cost a cache-missed API read a tenth of its time; bench/README.md,
 * "The last run"). Only the policy's nonce changes per request.
 */
export function securityHeaders(options: { development: boolean }): RequestHandler {
  const { set: fixedHeaders, removed } = headersOf(
    helmet({
      contentSecurityPolicy: false,
      // Images from https hosts are allowed (product images); they need no CORP handshake.
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  );
  const policy = contentSecurityPolicy(options.development);
  return (_req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", policy.withNonce(nonce));
    for (const [name, value] of fixedHeaders) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

/**
 * The policy, written as `directive source source;directive …`: with a response's nonce for its
 * inline scripts, or, for a page the guest page cache sends to everyone, with the hashes of the
 * inline scripts it holds and no nonce (server/http/cached-page-scripts.ts).
 */
export type ContentSecurityPolicy = {
  withNonce(nonce: string): string;
  withHashes(hashes: readonly string[]): string;
};

export function contentSecurityPolicy(development: boolean): ContentSecurityPolicy {
  const directives = (...scriptSources: string[]): [string, string[]][] => [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...scriptSources]],
    // Vite injects styles from JavaScript while developing; the built site uses files only.
    ["style-src", development ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ["img-src", ["'self'", "data:", "https:"]],
    ["font-src", ["'self'"]],
    ["connect-src", development ? ["'self'", "ws://127.0.0.1:*", "ws://localhost:*"] : ["'self'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["object-src", ["'none'"]],
  ];
  const written = (list: [string, string[]][]) => list.map(([name, sources]) => [name, ...sources].join(" ")).join(";");
  // Written once around a mark where each request's nonce goes.
  const mark = "\u0000";
  const [before, after] = written(directives(mark)).split(mark) as [string, string];
  return {
    withNonce: (nonce) => `${before}'nonce-${nonce}'${after}`,
    withHashes: (hashes) => written(directives(...hashes)),
  };
}

/** The headers a middleware sets on an answer and those it removes, read by running it once on a recording answer. */
function headersOf(middleware: ReturnType<typeof helmet>): { set: [string, string][]; removed: string[] } {
  const headers = new Map<string, string>();
  const removed = new Set<string>();
  const recording = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
      removed.delete(name);
    },
    removeHeader(name: string) {
      headers.delete(name);
      removed.add(name);
    },
  } as unknown as ServerResponse;
  let called = false;
  middleware({ headers: {} } as IncomingMessage, recording, (error?: unknown) => {
    if (error) throw error;
    called = true;
  });
  if (!called) throw new Error("helmet did not set its headers at once");
  return { set: [...headers], removed: [...removed] };
}
