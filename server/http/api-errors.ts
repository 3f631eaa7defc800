import type { ErrorRequestHandler } from "express";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  RuleViolationError,
  ServiceUnavailableError,
  UnauthorizedError,
  isDatabaseUnavailable,
} from "../domain-errors";
import { failure } from "./envelope";

/** The one mapping of errors to API answers. Nothing but these messages ever reaches a client. */
export const apiErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const { status, body, retryAfter } = describeApiError(error);
  if (status >= 500 && status !== 503) req.log?.error({ err: error }, "API request failed");
  else if (status === 503) req.log?.warn({ err: error }, "database unavailable");
  if (retryAfter) res.set("Retry-After", String(retryAfter));
  if (res.headersSent) return;
  res.status(status).json(body);
};

export function describeApiError(error: unknown): {
  status: number;
  body: ReturnType<typeof failure>;
  retryAfter?: number;
} {
  if (error instanceof InvalidInputError) return { status: 400, body: failure(error.message, error.errors) };
  if (error instanceof RuleViolationError) return { status: 400, body: failure(error.message) };
  if (error instanceof UnauthorizedError) return { status: 401, body: failure(error.message) };
  if (error instanceof ForbiddenError) return { status: 403, body: failure(error.message) };
  if (error instanceof NotFoundError) return { status: 404, body: failure(error.message) };
  if (error instanceof ConflictError) return { status: 409, body: failure(error.message) };
  if (error instanceof RateLimitedError) {
    return { status: 429, body: failure(error.message), retryAfter: error.retryAfterSeconds };
  }
  if (error instanceof ServiceUnavailableError || isDatabaseUnavailable(error)) {
    return { status: 503, body: failure("Service temporarily unavailable"), retryAfter: 5 };
  }
  if (error instanceof DomainError) return { status: 400, body: failure(error.message) };
  // body-parser's own errors carry a status and a type.
  const parserError = error as { type?: string; status?: number };
  if (parserError.type === "entity.too.large") {
    return { status: 413, body: failure("Request body is too large (at most 10 kB)") };
  }
  if (parserError.type === "entity.parse.failed") {
    return { status: 400, body: failure("Request body is not valid JSON") };
  }
  if (parserError.type === "encoding.unsupported" || parserError.type === "charset.unsupported") {
    return { status: 415, body: failure("Request body must be UTF-8 JSON") };
  }
  if (typeof parserError.status === "number" && parserError.status >= 400 && parserError.status < 500) {
    return { status: parserError.status, body: failure("Bad request") };
  }
  return { status: 500, body: failure("Something went wrong") };
}
