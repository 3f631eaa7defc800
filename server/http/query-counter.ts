import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestHandler } from "express";
import type pg from "pg";
import type { Database } from "../db/database";

/**
 * For the benchmark only (BENCH_QUERY_COUNT=on; never on by default): counts the database round
 * trips of each request — every Knex query, BEGIN and COMMIT included, and the session store's
 * queries on its own pool — so that an N+1 shows in `npm run bench`.
 *
 * - `X-Query-Count` on each response: the queries made before the headers went out (a page's
 *   loaders, an API handler);
 * - `GET /__bench/query-stats` (loopback only): totals over finished requests, counted when the
 *   response closes, so the session store's write after the body is in them too. `?reset` starts
 *   new totals (the bench resets between scenarios).
 */
export const QUERY_COUNT_HEADER = "X-Query-Count";
export const QUERY_STATS_PATH = "/__bench/query-stats";

export type QueryStats = {
  requests: number;
  queries: number;
  /** The most queries one request made. */
  max: number;
  /** Requests by their number of queries. */
  histogram: Record<string, number>;
};

type Tally = { queries: number };

export function queryCounter(options: { db: Database; pools?: pg.Pool[] }): RequestHandler {
  const storage = new AsyncLocalStorage<Tally>();
  const count = () => {
    const tally = storage.getStore();
    if (tally) tally.queries += 1;
  };
  options.db.on("query", count);
  for (const pool of options.pools ?? []) {
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => {
      count();
      return query(...args);
    }) as unknown as typeof pool.query;
  }

  let totals = emptyStats();
  return (req, res, next) => {
    if (req.path === QUERY_STATS_PATH) {
      if (!isLoopback(req.socket.remoteAddress)) return next();
      const current = totals;
      if (req.query.reset !== undefined) totals = emptyStats();
      res.set("Cache-Control", "no-store").json(current);
      return;
    }
    const tally: Tally = { queries: 0 };
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: unknown[]) {
      if (!res.headersSent) res.setHeader(QUERY_COUNT_HEADER, String(tally.queries));
      return (writeHead as (...a: unknown[]) => typeof res).apply(this, args);
    } as typeof res.writeHead;
    res.once("close", () => {
      totals.requests += 1;
      totals.queries += tally.queries;
      totals.max = Math.max(totals.max, tally.queries);
      totals.histogram[tally.queries] = (totals.histogram[tally.queries] ?? 0) + 1;
    });
    storage.run(tally, next);
  };
}

function emptyStats(): QueryStats {
  return { requests: 0, queries: 0, max: 0, histogram: {} };
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}
