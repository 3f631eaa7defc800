/**
 * The log as a person reads it in a terminal: one line a record, "19:29:03 INFO  Waqt is ready:
 * open http://localhost:3000", a request as "GET /products 200 in 12 ms", an error's stack
 * below it, other fields as name=value. pino writes JSON; server/logging/logger.ts passes it through here
 * only when its output is a terminal (files and log shippers keep the JSON). A few lines of our
 * own rather than pino-pretty and its dependencies (docs/decisions/2026-11-25-phone-first.md).
 */
const LEVELS: Record<number, { label: string; colour: string }> = {
  10: { label: "TRACE", colour: "90" },
  20: { label: "DEBUG", colour: "90" },
  30: { label: "INFO", colour: "32" },
  40: { label: "WARN", colour: "33" },
  50: { label: "ERROR", colour: "31" },
  60: { label: "FATAL", colour: "41;97" },
};

/** What every record has, or what is said another way on the line. */
const SAID_ALREADY = new Set(["level", "time", "msg", "pid", "hostname", "reqId", "req", "res", "responseTime", "err"]);

type LogRecord = {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
};

export function plainLogLine(json: string, options: { colours?: boolean } = {}): string {
  let record: LogRecord;
  try {
    record = JSON.parse(json) as LogRecord;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const level = LEVELS[record.level ?? 30] ?? { label: "LOG", colour: "0" };
  const label = level.label.padEnd(5);
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8);
  const words: string[] = [time, options.colours ? `\u001b[${level.colour}m${label}\u001b[0m` : label];
  if (record.req) {
    // A request: what was asked, the answer and how long it took; the message only if unusual.
    words.push(`${record.req.method ?? ""} ${record.req.url ?? ""}`.trim(), String(record.res?.statusCode ?? ""));
    if (record.responseTime !== undefined) words.push(`in ${record.responseTime} ms`);
    if (record.msg && record.msg !== "request completed") words.push(`(${record.msg})`);
  } else if (record.msg) {
    words.push(record.msg);
  }
  for (const [name, value] of Object.entries(record)) {
    if (SAID_ALREADY.has(name) || value === undefined) continue;
    words.push(`${name}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  let line = words.join(" ");
  const problem = record.err?.stack ?? record.err?.message;
  if (problem) line += `\n    ${problem.split("\n").join("\n    ")}`;
  return `${line}\n`;
}
