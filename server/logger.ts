import { pino, type Logger } from "pino";
import type { Config } from "./config";

export type { Logger };

export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    // Never write credentials or session ids to the log.
    redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
  });
}
