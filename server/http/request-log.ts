import crypto from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "../logging/logger";
import { loggableUrl } from "./token-links";

declare module "http" {
  interface IncomingMessage {
    /** The request's id: the caller's X-Request-Id when it is a sane one, else a new UUID. */
    id: string;
    /** The log with this request's id bound, made the first time something logs through it. */
    log: Logger;
  }
}

const SANE_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * One line per request (method, path and query, status, milliseconds) at info, at error for a 5xx
 * (a request the client cancelled before its answer is info too), and every request's id in X-Request-Id.
 * A link carrying a secret token is written without it (token-links.ts).
 *
 * Nothing is done for a line the log level would drop: a general-purpose request logger binds a
 * child log with the serialized request (all its headers) to every request before knowing whether
 * a line will be written, which cost a cache-missed API read a tenth of its CPU (bench/README.md,
 * "The last run"). Headers are never logged: they carry cookies and tokens.
 */
export function requestLog(logger: Logger, options: { ignore: (path: string) => boolean }): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.id = id;
    res.setHeader("X-Request-Id", id);
    let log: Logger | undefined;
    Object.defineProperty(req, "log", { get: () => (log ??= logger.child({ reqId: id })), configurable: true });
    if (options.ignore(req.path)) return next();

    const startedAt = performance.now();
    let done = false;
    const onEnd = () => {
      if (done) return;
      done = true;
      // Closed before the answer was all sent: a browser that went elsewhere (a tap on another
      // link, a closed tab), which is no fault of the store's. A failure of ours that cut an
      // answer short is written by the error handler that cut it (server/http/page-errors.ts).
      const aborted = !res.writableFinished;
      const level = res.statusCode >= 500 && !aborted ? "error" : "info";
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: id,
          req: { method: req.method, url: loggableUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - startedAt),
        },
        aborted ? "request cancelled by the client" : level === "error" ? "request errored" : "request completed",
      );
    };
    res.once("finish", onEnd);
    res.once("close", onEnd);
    next();
  };
}
