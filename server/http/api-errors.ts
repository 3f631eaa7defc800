import type { ErrorRequestHandler } from "express";
import {
  BusyError,
  CodedConflictError,
  InvalidInputError,
  SERVICE_UNAVAILABLE,
  retryAfterOf,
  statusOf,
} from "../modules/shared/errors.shared";
import { failure, type ErrorEnvelope } from "./envelope";

/** The API's answer to an error: its status from statusOf, and only the store's own words. */
export const apiErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const { status, body, retryAfter } = describeApiError(error);
  if (status === 503)
    req.log?.warn({ err: error }, error instanceof BusyError ? "photo lane full" : "database unavailable");
  else if (status >= 500) req.log?.error({ err: error }, "API request failed");
  if (retryAfter) res.set("Retry-After", String(retryAfter));
  if (res.headersSent) return;
  res.status(status).json(body);
};

/** Errors of Express's JSON body parser, which carry a `type` (they never reach a service). */
const BODY_PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  "entity.too.large": { status: 413, message: "Request body is too large (at most 10 kB)" },
  "entity.parse.failed": { status: 400, message: "Request body is not valid JSON" },
  "encoding.unsupported": { status: 415, message: "Request body must be UTF-8 JSON" },
  "charset.unsupported": { status: 415, message: "Request body must be UTF-8 JSON" },
};

export function describeApiError(error: unknown): {
  status: number;
  body: ReturnType<typeof failure>;
  retryAfter?: number;
} {
  const parserError = error as { type?: string; status?: number };
  const parserRefusal = typeof parserError?.type === "string" ? BODY_PARSER_ERRORS[parserError.type] : undefined;
  if (parserRefusal) return { status: parserRefusal.status, body: failure(parserRefusal.message) };

  const status = statusOf(error);
  if (status === 503) return { status, body: failure(SERVICE_UNAVAILABLE), retryAfter: retryAfterOf(error) };
  if (status === 500) {
    // Any other client error of Express's own (a status of 4xx on the error): said generically.
    if (typeof parserError?.status === "number" && parserError.status >= 400 && parserError.status < 500) {
      return { status: parserError.status, body: failure("Bad request") };
    }
    return { status, body: failure("Something went wrong") };
  }
  const message = (error as Error).message;
  const fields = error instanceof InvalidInputError ? error.errors : undefined;
  const code = error instanceof CodedConflictError ? (error.code as ErrorEnvelope["code"]) : undefined;
  return { status, body: failure(message, fields, code), retryAfter: retryAfterOf(error) };
}
