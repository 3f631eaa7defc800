import zlib from "node:zlib";
import compression from "compression";
import type { Request, RequestHandler, Response } from "express";
import Negotiator from "negotiator";

/**
 * Compression of every answer, with the flushes of a streamed page gathered into one per burst,
 * and an answer sent whole (the API's JSON, a cached page) compressed whole.
 *
 * `@react-router/node` calls `res.flush()` after every chunk it writes (the page's stream hands
 * it a chunk every few kilobytes), and each flush makes `compression()` end a brotli or gzip
 * block: the compressor starts afresh after each, so a 33 kB page cost more CPU compressed than
 * rendered (bench/README.md, "The last run"). Here a flush only asks for one at the end of the current
 * turn of the event loop (setImmediate): the chunks React writes together go out as one block,
 * and whatever is written later (a part that streams in after the shell) is still flushed as soon
 * as it is written, so streaming behaves as before.
 */
export function responseCompression(): RequestHandler[] {
  return [compression(), gatherFlushes, compressWholeBodies];
}

const gatherFlushes: RequestHandler = (_req, res, next) => {
  // compression() gives every response a flush (pushing out what the compressor holds).
  const flushNow = res.flush as (() => void) | undefined;
  if (typeof flushNow !== "function") return next();
  let pending: NodeJS.Immediate | undefined;
  res.flush = () => {
    pending ??= setImmediate(() => {
      pending = undefined;
      if (!res.writableEnded) flushNow.call(res);
    });
  };
  // The end of the answer flushes everything anyway.
  const cancel = () => {
    if (pending) clearImmediate(pending);
    pending = undefined;
  };
  res.once("finish", cancel);
  res.once("close", cancel);
  next();
};

/**
 * compression()'s own choices, so that an answer compressed whole gets the encoding it would have
 * been streamed with: the encodings it offers and prefers on a tie (compression 1.8, index.js) and
 * its threshold (1 kB). Its filter (`compression.filter`, a compressible type) is used as it is.
 * tests/integration/compression.test.ts asks both paths the same Accept-Encoding headers and
 * expects the same encoding from each.
 */
const OFFERED_ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED_ENCODINGS = ["br", "gzip"];
const THRESHOLD_BYTES = 1024;
/**
 * Brotli's quality for answers compressed whole: 2 rather than compression()'s 4. On a 17 kB
 * answer of the filtered catalogue API, quality 2 took about half the CPU of 4 (0.085 against
 * 0.17 ms) for 1 % more bytes (4,110 against 4,063); docs/decisions/2026-11-26-catalogue-filters.md.
 */
const WHOLE_BODY_BROTLI_QUALITY = 2;
/**
 * Above this, an answer goes through compression()'s stream (in libuv's threads) rather than
 * being compressed on the event loop: a few tens of kilobytes take a tenth of a millisecond.
 */
export const WHOLE_BODY_LIMIT_BYTES = 64 * 1024;

/** The encoding compression() would choose for this request: null for none. */
export function negotiatedEncoding(req: Request): "br" | "gzip" | "deflate" | null {
  // Without the header compression() sends the answer as it is (its `enforceEncoding`, identity).
  if (!req.headers["accept-encoding"]) return null;
  // negotiator 0.6 takes the preferred encodings as a second argument, as compression() passes
  // them; its published types (@types/negotiator 0.6) do not declare it.
  const negotiator = new Negotiator(req) as unknown as {
    encoding(available: readonly string[], preferred: readonly string[]): string | undefined;
  };
  const method = negotiator.encoding(OFFERED_ENCODINGS, PREFERRED_ENCODINGS);
  return method === "br" || method === "gzip" || method === "deflate" ? method : null;
}

/**
 * An answer given whole to `res.end` (Express's `res.send` and `res.json` do) is compressed in
 * one synchronous call and sent with its length: compression()'s stream costs a zlib stream, a
 * trip to libuv's threads and back, and a write per output chunk for every answer, about three
 * times the CPU of compressing the same 14 kB of JSON at once (docs/decisions/2026-11-26-catalogue-filters.md).
 * Whatever this leaves (a streamed page, a large body, a HEAD, an encoded answer) compression()
 * handles as before: it sees the Content-Encoding set here and passes the bytes through.
 */
const compressWholeBodies: RequestHandler = (req, res, next) => {
  const end = res.end as (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;
  res.end = function endCompressed(this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    const body = wholeBodyOf(chunk, encoding);
    const method = body && !this.headersSent && wantsCompression(req, this, body) ? negotiatedEncoding(req) : null;
    if (!body || !method) return end.call(this, chunk, encoding, callback);
    const compressed = compressWhole(body, method);
    this.vary("Accept-Encoding");
    this.setHeader("Content-Encoding", method);
    this.setHeader("Content-Length", compressed.length);
    return end.call(this, compressed, typeof encoding === "function" ? encoding : callback);
  } as Response["end"];
  next();
};

function wholeBodyOf(chunk: unknown, encoding: unknown): Buffer | null {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string")
    return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  return null;
}

function wantsCompression(req: Request, res: Response, body: Buffer): boolean {
  if (req.method === "HEAD" || res.statusCode === 204 || res.statusCode === 304) return false;
  if (body.length < THRESHOLD_BYTES || body.length > WHOLE_BODY_LIMIT_BYTES) return false;
  if (res.getHeader("Content-Encoding")) return false;
  // Any mention of no-transform leaves the answer to compression(), whose own reading decides.
  if (
    String(res.getHeader("Cache-Control") ?? "")
      .toLowerCase()
      .includes("no-transform")
  )
    return false;
  return compression.filter(req, res);
}

function compressWhole(body: Buffer, method: "br" | "gzip" | "deflate"): Buffer {
  if (method === "br") {
    return zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: WHOLE_BODY_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return method === "gzip" ? zlib.gzipSync(body) : zlib.deflateSync(body);
}
