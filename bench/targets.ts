import type { LoadResult } from "./load";
import { fixed, type BenchResult, type Target } from "./report";

/** The issue's targets, each judged on a run's results with what was measured against it. */

/** Queries per request that still count as "a handful" for a read. */
export const HANDFUL_OF_QUERIES = 8;

export function evaluateTargets(result: BenchResult): Target[] {
  const scenario = (id: string) => result.scenarios.find((entry) => entry.id === id);
  const targets: Target[] = [];
  const database = (entry: LoadResult) =>
    entry.cpuMsPerRequest.database === null ? "?" : `${entry.cpuMsPerRequest.database.toFixed(1)} ms`;
  const ratioTarget = (id: string, minimum: number, against: string) => {
    const found = scenario(id);
    targets.push({
      target: `${found?.title ?? id}: at least ${minimum} × ${against}`,
      measured:
        found?.ratio !== undefined
          ? `${found.ratio.toFixed(2)} ×${found.cpuRatio !== undefined ? ` (by server CPU per request: ${found.cpuRatio.toFixed(2)} ×)` : ""}`
          : "not measured",
      met: found?.ratio !== undefined ? found.ratio >= minimum : null,
    });
  };
  ratioTarget("products", 0.6, "the bare React Router page");
  const miss = scenario("products-miss");
  const products = targets[targets.length - 1]!;
  if (scenario("products")?.cacheHitRate != null) {
    products.measured += `; page cache hits ${(scenario("products")!.cacheHitRate! * 100).toFixed(0)} %`;
  }
  if (miss?.ratio !== undefined) products.measured += `; every request a cache miss: ${miss.ratio.toFixed(2)} ×`;
  ratioTarget("api-products", 0.4, "bare Express");

  // Where the page cache cannot help (issue 19's table): each rendered from scratch, with where
  // its CPU went against the baseline's, so that a goal not met names its cause.
  const baselineCpu = (id: string) => {
    const runs = result.baselineRuns.filter((run) => run.id === id);
    return runs.length ? runs.reduce((sum, run) => sum + run.cpuMsPerRequest.server, 0) / runs.length : undefined;
  };
  const uncached = (id: string, minimum: number, against: "page" | "express", maxQueries?: number) => {
    const found = scenario(id);
    const base = baselineCpu(against === "page" ? "baseline-page" : "baseline-express");
    const queriesMet = maxQueries === undefined || (found?.queries ? found.queries.max <= maxQueries : false);
    targets.push({
      target:
        `${found?.title ?? id}: at least ${minimum} × ${against === "page" ? "the bare React Router page" : "bare Express"}` +
        (maxQueries !== undefined ? `, at most ${maxQueries} queries` : ""),
      measured:
        found?.ratio !== undefined
          ? `${found.ratio.toFixed(2)} ×${found.cpuRatio !== undefined ? ` (by CPU ${found.cpuRatio.toFixed(2)} ×)` : ""}` +
            (found.queries ? `, ${found.queries.max} queries` : "") +
            `; Node ${found.cpuMsPerRequest.server.toFixed(1)} ms and PostgreSQL ${database(found)} of CPU per request` +
            (base !== undefined ? ` against the baseline's ${base.toFixed(1)} ms` : "")
          : "not measured",
      met: found?.ratio !== undefined ? found.ratio >= minimum && queriesMet : null,
    });
  };
  uncached("products-miss", 0.6, "page");
  uncached("cart", 0.6, "page", 3);
  uncached("api-products-miss", 0.25, "express");

  // Judged on searches the page cache does not answer (a popular search, cached, is also shown),
  // on the large catalogue when the run measured one (the issue's goal is at 100,000 products).
  const largeProducts = result.large?.products;
  const atLarge = largeProducts ? ` at ${fixed(largeProducts)} products` : "";
  const search = scenario(largeProducts ? "search-miss-large" : "search-miss");
  const searchOne = scenario(largeProducts ? "search-miss-1c-large" : "search-miss-1c");
  const searchCached = scenario("search");
  targets.push({
    target: `Search p99 under 50 ms${atLarge} (not from the page cache, ${result.options.connections} connections)`,
    measured: search
      ? `${search.latencyMs.p99} ms (PostgreSQL ${database(search)} and Node ${search.cpuMsPerRequest.server.toFixed(1)} ms of CPU per search)` +
        (searchOne ? `; 1 connection: p50 ${searchOne.latencyMs.p50} ms, p99 ${searchOne.latencyMs.p99} ms` : "") +
        (searchCached
          ? `; the same searches from the cache (${searchCached.cacheHitRate === null ? "no cache" : `${(searchCached.cacheHitRate * 100).toFixed(0)} % hits`}): p99 ${searchCached.latencyMs.p99} ms`
          : "")
      : "not measured",
    met: search ? search.latencyMs.p99 < 50 : null,
  });

  // The watch catalogue's filters with their counts (issue "Watches found by what matters"): the
  // API's filtered views, counts never asked before, at 100,000 products.
  const filtered = scenario("api-products-filtered-miss-large");
  targets.push({
    target: `Filtered API with its counts p99 under 50 ms${atLarge} (counts never asked before, ${result.options.connections} connections)`,
    measured: filtered
      ? `${filtered.latencyMs.p99} ms (Node ${filtered.cpuMsPerRequest.server.toFixed(2)} ms and PostgreSQL ${database(filtered)} of CPU per request)`
      : "not measured",
    met: filtered ? filtered.latencyMs.p99 < 50 : null,
  });

  // A page the cache does not have, on the large catalogue against the default one: its rate
  // relative to the baseline within 1.2 × (exact counts and deep pages must not grow with the table).
  if (largeProducts) {
    for (const [id, what] of [
      ["products-miss", "Guest /products (page 1), cache missed"],
      ["products-deep-miss", "Guest /products deep page (90 % of the pages), cache missed"],
    ] as const) {
      const small = scenario(id);
      const big = scenario(`${id}-large`);
      const slower = small?.ratio && big?.ratio ? small.ratio / big.ratio : undefined;
      targets.push({
        target: `${what}${atLarge}: within 1.2 × of ${fixed(result.options.products)} products`,
        measured:
          small && big && slower !== undefined
            ? `${slower.toFixed(2)} × the cost at ${fixed(result.options.products)} (${big.ratio!.toFixed(2)} × the bare page against ${small.ratio!.toFixed(2)} ×); ` +
              `PostgreSQL ${database(big)} against ${database(small)}, Node ${big.cpuMsPerRequest.server.toFixed(1)} ms against ${small.cpuMsPerRequest.server.toFixed(1)} ms of CPU per page`
            : "not measured",
        met: slower !== undefined ? slower <= 1.2 : null,
      });
    }
  }

  const all = [...result.baselineRuns, ...result.scenarios];
  const errors = all.reduce((sum, entry) => sum + entry.errors, 0);
  const lastUnitsOther = result.lastUnits
    ? Object.values(result.lastUnits.otherStatuses).reduce((sum, n) => sum + n, 0)
    : 0;
  targets.push({
    target: "Zero errors",
    measured: `${errors + lastUnitsOther} in ${all.reduce((sum, entry) => sum + entry.requests, 0).toLocaleString("en")} requests`,
    met: errors + lastUnitsOther === 0,
  });

  const reads = result.scenarios.filter((entry) => entry.id !== "checkout" && entry.queries);
  const worst = reads.reduce<LoadResult | null>(
    (top, entry) => (!top || entry.queries!.max > top.queries!.max ? entry : top),
    null,
  );
  const checkout = scenario("checkout");
  targets.push({
    target: `No request with more than a handful (${HANDFUL_OF_QUERIES}) of queries`,
    measured: worst
      ? `reads: at most ${worst.queries!.max} (${worst.id})` +
        (checkout?.queries
          ? `; checkout requests: at most ${checkout.queries.max} (one transaction, not per line)`
          : "")
      : "not measured",
    met: worst ? worst.queries!.max <= HANDFUL_OF_QUERIES : null,
  });

  if (result.checkout) {
    targets.push({
      target: `Checkout: at least 300 orders/s with ${result.options.shoppers} concurrent shoppers`,
      measured:
        `${result.checkout.ordersPerSecond.toFixed(1)} orders/s` +
        (checkout
          ? ` (${checkout.queries ? `${checkout.queries.perRequest.toFixed(1)} round trips, ` : ""}PostgreSQL ${database(checkout)} and Node ${checkout.cpuMsPerRequest.server.toFixed(1)} ms of CPU per order)`
          : ""),
      met: result.checkout.ordersPerSecond >= 300,
    });
    const lastUnits = result.lastUnits;
    targets.push({
      target: "No oversell",
      measured:
        `checkout: ${result.checkout.oversell.unitsOrdered} units ordered = ${result.checkout.oversell.unitsTakenFromStock} taken from stock, lowest stock ${result.checkout.oversell.lowestStock}` +
        (lastUnits
          ? `; last ${lastUnits.stock} units, ${lastUnits.shoppers} shoppers at once: ${lastUnits.placed} placed, ${lastUnits.refused} refused (409), stock ${lastUnits.stockAfter}`
          : ""),
      met: result.checkout.oversell.ok && (lastUnits?.ok ?? true),
    });
  }
  return targets;
}
