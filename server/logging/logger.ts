import { isatty } from "node:tty";
import { pino, type Logger } from "pino";
import type { Config } from "../settings/config";
import { plainLogLine } from "./log-lines";

export type { Logger };

/** Where the log goes: the process's standard output, or a stream a test hands in. */
export type LogOutput = { write(text: string): unknown; isTTY?: boolean; hasColors?: () => boolean };

/**
 * The process's log: JSON lines for files and log shippers, plain lines for a person when the
 * output is a terminal (server/logging/log-lines.ts).
 */
export function createLogger(level: Config["logLevel"], output?: LogOutput): Logger {
  const options = {
    level,
    // Never write credentials or session ids to the log.
    redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
  };
  if (!output) {
    // Asked of the file descriptor: reading process.stdout would open a stream on it too, beside
    // pino's own synchronous writer.
    if (!isatty(1)) return pino(options);
    output = process.stdout;
  }
  if (!output.isTTY) return pino(options, output);
  const colours = output.hasColors?.() ?? false;
  return pino(options, { write: (line: string) => void output.write(plainLogLine(line, { colours })) });
}
