import http from "node:http";
import type { Duplex } from "node:stream";
import type { Express } from "express";
import { failure } from "./envelope";

/**
 * The HTTP server of the app. Requests that Node's parser refuses before Express sees them (a
 * header section over 16 kB, a malformed request line) get Node's status, but in the store's
 * words: the API's JSON envelope for a request line under /api/v1, a short text elsewhere.
 * Node's own answer was a bare status line that API clients could not read.
 */
export function createHttpServer(app: Express): http.Server {
  const server = http.createServer(app);
  // An idle kept-alive connection is closed by the client or the proxy in front, not by the store:
  // when both ends may close it, a request sent as the server closes it is reset (a 502 behind nginx,
  // whose upstream connections idle up to 60 s; "other side closed" in a client). Node's own 5 s was
  // shorter than every proxy's. The headers' time limit (Node's 60 s) stays the slow-client defence.
  server.keepAliveTimeout = KEPT_ALIVE_IDLE_MS;
  // A kept-alive connection carries many requests: what matters for a refusal is whether an answer
  // is under way on it now (ours would be written into the middle of that one), not whether the
  // connection has ever written anything. Node's own rule is the same, read from its internals.
  const answering = new WeakSet<Duplex>();
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const { socket } = request;
    answering.add(socket);
    response.once("close", () => answering.delete(socket));
  });
  server.on("clientError", (error: RefusedRequestError, socket: Duplex) =>
    answerRefusedRequest(error, socket, answering.has(socket)),
  );
  return server;
}

/** How long the store keeps an idle connection open: longer than the proxies' that reuse them. */
export const KEPT_ALIVE_IDLE_MS = 65_000;

const REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: "Request header fields too large" },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: "Request body is too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "Request timeout" },
};
const BAD_REQUEST = { status: 400, message: "Bad request" };

/** Every status such a refusal may answer: any API call may meet one (server/http/openapi.ts lists them). */
export const REFUSED_REQUEST_STATUSES = [
  ...new Set([...Object.values(REFUSALS), BAD_REQUEST].map(({ status }) => status)),
];

type RefusedRequestError = NodeJS.ErrnoException & { rawPacket?: Buffer };

function answerRefusedRequest(error: RefusedRequestError, socket: Duplex, answerUnderWay: boolean) {
  // Answer only between answers: a connection whose answer is under way is closed instead.
  if (error.code === "ECONNRESET" || !socket.writable || answerUnderWay) {
    socket.destroy();
    return;
  }
  const { status, message } = REFUSALS[error.code ?? ""] ?? BAD_REQUEST;
  const api = isApiRequestLine(error.rawPacket);
  const body = api ? JSON.stringify(failure(message)) : `${message}\n`;
  socket.end(
    [
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
      `Content-Type: ${api ? "application/json" : "text/plain"}; charset=utf-8`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Cache-Control: no-store",
      "X-Content-Type-Options: nosniff",
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

/** Whether the request line that Node received (as far as it got) asks for a path under /api/v1. */
function isApiRequestLine(received: Buffer | undefined): boolean {
  if (!received) return false;
  const requestLine = received.subarray(0, 8192).toString("latin1").split("\r\n", 1)[0]!;
  const target = requestLine.split(" ")[1];
  if (!target) return false;
  try {
    const { pathname } = new URL(target, "http://request.line");
    return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
  } catch {
    return false;
  }
}
