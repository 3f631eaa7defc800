import compression from "compression";
import type { RequestHandler } from "express";

/**
 * Compression of every answer, with the flushes of a streamed page gathered into one per burst.
 *
 * `@react-router/node` calls `res.flush()` after every chunk it writes (the page's stream hands
 * it a chunk every few kilobytes), and each flush makes `compression()` end a brotli or gzip
 * block: the compressor starts afresh after each, so a 33 kB page cost more CPU compressed than
 * rendered (README.md, "Performance"). Here a flush only asks for one at the end of the current
 * turn of the event loop (setImmediate): the chunks React writes together go out as one block,
 * and whatever is written later (a part that streams in after the shell) is still flushed as soon
 * as it is written, so streaming behaves as before.
 */
export function responseCompression(): RequestHandler[] {
  return [compression(), gatherFlushes];
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
