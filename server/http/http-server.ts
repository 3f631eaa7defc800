import http from "node:http";
import type { Duplex } from "node:stream";
import type { Express } from "express";

/**
 * The HTTP server of the app. Requests that Node's parser refuses before Express sees them (a
 * header section over 16 kB, a malformed request line) get Node's status, but in the store's
 * words: the API's JSON envelope for a request line under /api/v1, a short text elsewhere.
 * Node's own answer was a bare status line that API clients could not read.
 */
export function createHttpServer(app: Express): http.Server {
  const server = http.createServer(app);
  server.on("clientError", answerRefusedRequest);
  return server;
}

const REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: "Request header fields too large" },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: "Request body is too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "Request timeout" },
};
const BAD_REQUEST = { status: 400, message: "Bad request" };

function answerRefusedRequest(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) {
  // As Node does: answer only on a connection that has not written anything yet.
  const { bytesWritten } = socket as Duplex & { bytesWritten?: number };
  if (error.code === "ECONNRESET" || !socket.writable || (bytesWritten ?? 0) > 0) {
    socket.destroy();
    return;
  }
  const { status, message } = REFUSALS[error.code ?? ""] ?? BAD_REQUEST;
  const api = isApiRequestLine(error.rawPacket);
  const body = api ? JSON.stringify({ success: false, message }) : `${message}\n`;
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
