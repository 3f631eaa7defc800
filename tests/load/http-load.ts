import http from "node:http";
import zlib from "node:zlib";

/**
 * A small load client on Node's http module: one keep-alive agent, every request timed and kept
 * with what a check needs afterwards (status, body, when it started, whether its socket was new).
 */
export type Sent = {
  /** The kind of request, as the report groups them ("page /products", "api POST /orders", …). */
  kind: string;
  method: string;
  path: string;
  /** HTTP status, 0 when no complete answer came (see `error`). */
  status: number;
  /** Milliseconds from the request's start to the last byte of its answer (or its failure). */
  ms: number;
  /** performance.now() at the start and at the end. */
  startedAt: number;
  endedAt: number;
  error?: string;
  /** Whether the request went out on a kept-alive socket that an earlier answer had used. */
  reusedSocket: boolean;
  /** Whether any byte of an answer arrived (a status line at least). */
  gotHeaders: boolean;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
};

export type Target = { host: string; port: number };

export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "lifo" });
}

export function send(
  agent: http.Agent,
  target: Target,
  request: { kind: string; method?: string; path: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<Sent> {
  const method = request.method ?? "GET";
  const startedAt = performance.now();
  return new Promise<Sent>((resolve) => {
    let settled = false;
    let gotHeaders = false;
    let status = 0;
    let headers: http.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const endedAt = performance.now();
      resolve({
        kind: request.kind,
        method,
        path: request.path,
        status: error ? 0 : status,
        ms: endedAt - startedAt,
        startedAt,
        endedAt,
        error,
        reusedSocket: req.reusedSocket,
        gotHeaders,
        headers,
        body: Buffer.concat(chunks),
      });
    };
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const req = http.request(
      {
        agent,
        host: target.host,
        port: target.port,
        method,
        path: request.path,
        headers: {
          "accept-encoding": "gzip",
          ...(body ? { "content-length": String(body.length) } : {}),
          ...request.headers,
        },
      },
      (res) => {
        gotHeaders = true;
        status = res.statusCode ?? 0;
        headers = res.headers;
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => (res.complete ? finish() : finish("incomplete answer")));
        res.on("error", (error) => finish(describe(error)));
        res.on("aborted", () => finish("answer cut off"));
      },
    );
    const timer = setTimeout(() => {
      finish(`no answer within ${timeoutMs} ms`);
      req.destroy();
    }, timeoutMs);
    req.on("error", (error) => finish(describe(error)));
    req.end(body);
  });
}

function describe(error: Error): string {
  const code = (error as { code?: string }).code;
  return code ? `${code}: ${error.message}` : error.message;
}

/** The answer's text, unzipped when it came gzipped. */
export function textOf(sent: Sent): string {
  if (sent.body.length === 0) return "";
  const raw = sent.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(sent.body) : sent.body;
  return raw.toString("utf8");
}

export function jsonOf(sent: Sent): any {
  try {
    return JSON.parse(textOf(sent));
  } catch {
    return undefined;
  }
}

/** The p-th percentile (0-100) of sorted values, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export type LatencySummary = { count: number; p50: number; p90: number; p99: number; max: number };

export function summarize(latencies: number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  const values = Array.from(sorted);
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(values.at(-1) ?? Number.NaN),
  };
}

export function statusClass(sent: Sent): string {
  if (sent.status === 0) return "error";
  return `${Math.floor(sent.status / 100)}xx`;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
