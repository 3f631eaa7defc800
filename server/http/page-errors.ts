import type { ErrorRequestHandler } from "express";
import {
  BusyError,
  SERVICE_UNAVAILABLE,
  SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  statusOf,
} from "../modules/shared/errors.shared";
import type { Logger } from "../logging/logger";
import { loggableUrl } from "./token-links";

/**
 * The pages' side of "the database does not answer": the error screen with status 503, which
 * recovers by itself (docs/product.md, "When the database is away"). React Router renders any
 * thrown error as a 500 and, in production, replaces its message before the error screen sees
 * it; only a thrown Response keeps its status and words. So database unavailability becomes a
 * 503 Response where the pages reach the services (found by the load test's database restart:
 * every page was a 500).
 */
export function unavailableResponse(): Response {
  return new Response(SERVICE_UNAVAILABLE, {
    status: 503,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Retry-After": String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS),
    },
  });
}

/**
 * The error as a page should throw it: database unavailability becomes the 503 Response. A
 * BusyError (the photo lane full) stays itself, for the form to say beside its field.
 */
export function asPageError(error: unknown): unknown {
  return statusOf(error) === 503 && !(error instanceof BusyError) ? unavailableResponse() : error;
}

/**
 * The services as the pages reach them: every method's failure passes through asPageError, so
 * that no loader or action has to know about the database (domain errors go through unchanged,
 * for the forms to show).
 */
export function servicesForPages<T extends object>(services: T): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(services, {
    get(target, property, receiver) {
      if (wrapped.has(property)) return wrapped.get(property);
      const service = Reflect.get(target, property, receiver);
      if (!service || typeof service !== "object") return service;
      const proxy = new Proxy(service as object, {
        get(serviceTarget, name) {
          const member = Reflect.get(serviceTarget, name);
          if (typeof member !== "function") return member;
          return (...args: unknown[]) => {
            try {
              const result = member.apply(serviceTarget, args);
              return result instanceof Promise
                ? result.catch((error: unknown) => {
                    throw asPageError(error);
                  })
                : result;
            } catch (error) {
              throw asPageError(error);
            }
          };
        },
      });
      wrapped.set(property, proxy);
      return proxy;
    },
  });
}

/**
 * Before the pages: the session store could not read the session because the database is away.
 * The request goes on to React Router marked as such (no session), where the root middleware
 * answers the 503 error screen; any other error goes on as it was.
 */
export function sessionStoreUnavailable(): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (!res.headersSent && isDatabaseUnavailable(error)) {
      res.locals.databaseUnavailable = true;
      return next();
    }
    next(error);
  };
}

/** How long an answer that has begun gets to finish after an error was reported for it. */
const FINISH_GRACE_MS = 2_000;

/**
 * After the pages. express-session writes a changed session while the page's last bytes wait;
 * when that write fails it ends the answer anyway and passes the error on. Express's own last
 * handler then destroyed the socket at once, before the compressed end had gone out, so a
 * signed-in shopper's page was cut off when the database went away (the load test's database restart).
 * An answer that has begun gets a moment to finish here, and is cut only if it does not.
 */
export function pageErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const unavailable = isDatabaseUnavailable(error);
    if (res.headersSent) {
      logger[unavailable ? "warn" : "error"](
        { err: error, url: loggableUrl(req.originalUrl) },
        "page error after the answer began",
      );
      if (!res.writableFinished) {
        const timer = setTimeout(() => {
          if (!res.writableFinished) res.destroy();
        }, FINISH_GRACE_MS);
        res.once("close", () => clearTimeout(timer));
      }
      return;
    }
    if (unavailable) {
      logger.warn({ err: error, url: loggableUrl(req.originalUrl) }, "database unavailable");
      res
        .status(503)
        .set("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .type("text/plain")
        .send(SERVICE_UNAVAILABLE);
      return;
    }
    logger.error({ err: error, url: loggableUrl(req.originalUrl) }, "page request failed");
    res.status(500).type("text/plain").send("Something went wrong");
  };
}
