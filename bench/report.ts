import type { LastUnitsResult, StockCheck } from "./checkout";
import type { SearchTermTiming } from "./database";
import type { LoadResult } from "./load";
import type { ProfileSummary } from "./profile";

/** The bench's results as JSON, a Markdown report and an SVG chart, and the issue's targets. */

export type BenchResult = {
  date: string;
  commit: string;
  machine: { cpus: number; cpu: string; ramGb: number; node: string; os: string; loadAverageAtStart: number[] };
  options: {
    products: number;
    duration: number;
    warmup: number;
    connections: number;
    shoppers: number;
    orders: number;
    encoding: string;
    only: string[] | null;
  };
  seed: { products: number; users: number; orders: number; checkoutProducts: number; seconds: number };
  searchTerms: SearchTermTiming[];
  /** The uncached rows measured again on a larger catalogue (the default run's --large). */
  large?: { products: number; searchTerms: SearchTermTiming[] } | null;
  baselineRuns: LoadResult[];
  baselineRps: { express: number; page: number };
  scenarios: LoadResult[];
  checkout: { orders: number; seconds: number; ordersPerSecond: number; oversell: StockCheck } | null;
  lastUnits: LastUnitsResult | null;
  targets: Target[];
  profile: ProfileSummary | null;
  seconds: number;
};

export type Target = { target: string; measured: string; met: boolean | null };

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

const fixed = (value: number, digits = 0) =>
  value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A search term's cost the first time and again (results written before the search cache have only the first). */
const termTiming = (entry: SearchTermTiming) =>
  `"${entry.term}" ${entry.ms.toFixed(1)} ms` +
  (entry.againMs === undefined ? "" : ` then ${entry.againMs.toFixed(1)} ms`) +
  ` (${fixed(entry.matches)} matches)`;

type Row = { id: string; title: string; result: LoadResult; baselineRuns?: LoadResult[] };

function rowsOf(result: BenchResult): Row[] {
  // The baselines' rows: every run at the default connections (each scenario brackets its own).
  const baselineRow = (id: string, title: string): Row | null => {
    const runs = result.baselineRuns.filter((run) => run.id === id && run.connections === result.options.connections);
    if (runs.length === 0) return null;
    const mean = (of: (run: LoadResult) => number) => runs.reduce((sum, run) => sum + of(run), 0) / runs.length;
    return {
      id,
      title,
      result: {
        ...runs[0]!,
        requestsPerSecond: mean((run) => run.requestsPerSecond),
        latencyMs: {
          ...runs[0]!.latencyMs,
          p50: Math.round(mean((run) => run.latencyMs.p50)),
          p99: Math.round(mean((run) => run.latencyMs.p99)),
        },
        errors: runs.reduce((sum, run) => sum + run.errors, 0),
        rssMb: { start: runs[0]!.rssMb.start, max: Math.max(...runs.map((run) => run.rssMb.max ?? 0)) },
        cpuMsPerRequest: {
          server: mean((run) => run.cpuMsPerRequest.server),
          database: mean((run) => run.cpuMsPerRequest.database ?? 0),
          loadGenerator: mean((run) => run.cpuMsPerRequest.loadGenerator),
        },
      },
      baselineRuns: runs,
    };
  };
  return [
    baselineRow("baseline-express", "Baseline: bare Express JSON"),
    baselineRow("baseline-page", "Baseline: bare React Router page"),
    ...result.scenarios.map((entry) => ({ id: entry.id, title: entry.title, result: entry })),
  ].filter((row): row is Row => row !== null);
}

export function renderMarkdown(
  result: BenchResult,
  extra: { lighthouse: LighthouseResults | null; images?: ImageResults | null; svgName: string },
): string {
  const { machine, options, seed } = result;
  const lines: string[] = [];
  lines.push(`### Results of ${result.date.slice(0, 16).replace("T", " ")} UTC (commit ${result.commit})`, "");
  lines.push(
    `Machine: ${machine.cpus} × ${machine.cpu}, ${machine.ramGb} GB RAM, Node ${machine.node}, ${machine.os}; ` +
      `load average at start ${machine.loadAverageAtStart.join(" / ")} (the machine is shared: ratios count, absolute figures are noisy).`,
    "",
    `Catalogue ${fixed(seed.products)} products, ${fixed(seed.users)} users, ${fixed(seed.orders)} orders. ` +
      `Each scenario: ${options.warmup} s warm-up, then its baseline ${options.duration / 2} s, the scenario ${options.duration} s and the baseline ${options.duration / 2} s again, ${options.connections} connections ` +
      `(checkout: ${fixed(options.orders)} orders, ${options.shoppers} at a time), autocannon over loopback, ` +
      "requests as a browser sends them " +
      (options.encoding === "gzip, deflate, br" ? "(gzip/br accepted)." : `(Accept-Encoding: ${options.encoding}).`),
    "",
  );
  lines.push(
    "| Scenario | Conns | Req/s | × baseline (by CPU) | p50 ms | p99 ms | Errors | Queries/req (max) | Cache hit | RSS max MB | CPU ms/req: Node + PostgreSQL |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  );
  for (const row of rowsOf(result)) {
    const entry = row.result;
    const spread = row.baselineRuns?.map((run) => run.requestsPerSecond);
    const rps =
      spread && spread.length > 1
        ? `${fixed(entry.requestsPerSecond)} (${fixed(Math.min(...spread))}–${fixed(Math.max(...spread))})`
        : fixed(entry.requestsPerSecond);
    const cpu = entry.cpuMsPerRequest;
    lines.push(
      `| ${row.title} | ${entry.connections} | ${rps} | ${ratioText(entry)} | ` +
        `${entry.latencyMs.p50} | ${entry.latencyMs.p99} | ${entry.errors} | ` +
        `${entry.queries ? `${entry.queries.perRequest.toFixed(1)} (${entry.queries.max})` : "—"} | ` +
        `${entry.cacheHitRate === null ? "—" : `${(entry.cacheHitRate * 100).toFixed(0)} %`} | ` +
        `${entry.rssMb.max === null ? "—" : fixed(entry.rssMb.max)} | ` +
        `${cpu.server.toFixed(2)} + ${cpu.database === null ? "?" : cpu.database.toFixed(2)} |`,
    );
  }
  const loads = [...result.baselineRuns, ...result.scenarios].map((entry) => entry.loadAverage);
  lines.push(
    "",
    "Each scenario's baseline ran just before and just after it, for half its duration each, with the same connections; " +
      "the ratio uses their mean (the baseline rows show the mean and range of those runs at the default connections; p50/p99 are means). " +
      "In brackets, the ratio by the server's CPU time per request (baseline's ÷ scenario's): what the ratio would be on a quiet machine, " +
      `less sensitive to other work than requests/s (the 1-minute load average went from ${Math.min(...loads)} to ${Math.max(...loads)} during the run). ` +
      `Search rotates ${result.searchTerms.length} terms; on the idle database, one page of results and the count of matches take, ` +
      "for a term never searched before and then again (from the search result cache, server/modules/catalog/search-cache.ts), " +
      `${result.searchTerms.map(termTiming).join(", ")}` +
      (result.large
        ? `; at ${fixed(result.large.products)} products (the rows marked so, a catalogue of products only, seeded after the others) ` +
          `${result.large.searchTerms.map(termTiming).join(", ")}`
        : "") +
      ". " +
      "Queries are database round trips (BEGIN/COMMIT and session-store queries included). " +
      "Cache hit reads `X-Page-Cache: hit|miss` (— when no response carries it).",
    "",
  );

  if (result.checkout) {
    const { checkout, lastUnits } = result;
    lines.push(
      "**Checkout**: " +
        `${fixed(checkout.orders)} orders (carts of one to three lines) in ${checkout.seconds.toFixed(1)} s = **${fixed(checkout.ordersPerSecond)} orders/s** ` +
        `with ${options.shoppers} shoppers ordering at once, after 200 orders to warm up. ` +
        `Stock check over ${checkout.oversell.products} products: ${fixed(checkout.oversell.unitsOrdered)} units ordered, ` +
        `${fixed(checkout.oversell.unitsTakenFromStock)} taken from stock, lowest stock ${fixed(checkout.oversell.lowestStock)} → ` +
        `${checkout.oversell.ok ? "consistent, no oversell" : "**INCONSISTENT**"}.`,
      "",
    );
    if (lastUnits) {
      lines.push(
        `**Last units**: ${lastUnits.stock} units in the carts of ${lastUnits.shoppers} shoppers who all order at once: ` +
          `${lastUnits.placed} orders placed, ${lastUnits.refused} refused with 409` +
          `${Object.keys(lastUnits.otherStatuses).length ? `, other: ${JSON.stringify(lastUnits.otherStatuses)}` : ""}; ` +
          `stock after ${lastUnits.stockAfter}, ${lastUnits.unitsOrdered} units ordered → ${lastUnits.ok ? "no oversell" : "**WRONG**"} (${(lastUnits.seconds * 1000).toFixed(0)} ms for the burst).`,
        "",
      );
    }
  }

  lines.push("| Target | Measured | Met |", "|---|---|---|");
  for (const target of result.targets) {
    lines.push(
      `| ${target.target} | ${target.measured} | ${target.met === null ? "—" : target.met ? "yes" : "**no**"} |`,
    );
  }
  lines.push("");

  if (extra.lighthouse) lines.push(...lighthouseMarkdown(extra.lighthouse), "");
  if (extra.images) lines.push(...imagesMarkdown(extra.images), "");

  if (result.profile) {
    lines.push(
      `**Where the store's CPU went** (node --cpu-prof, ${fixed(result.profile.busyMs)} ms busy; self time by package, native work charged to the package that asked for it):`,
      "",
      "| Part | Share |",
      "|---|--:|",
      ...result.profile.byPart.map((part) => `| ${part.part} | ${(part.share * 100).toFixed(1)} % |`),
      "",
      "| Function | Part | Share |",
      "|---|---|--:|",
      ...result.profile.topFunctions.map((fn) => `| \`${fn.fn}\` | ${fn.part} | ${(fn.share * 100).toFixed(1)} % |`),
      "",
    );
  }
  lines.push(`![Throughput and CPU per request](${extra.svgName})`, "");
  return lines.join("\n");
}

function ratioText(entry: LoadResult): string {
  if (entry.ratio === undefined) return "—";
  const against = entry.baseline === "page" ? "page" : "Express";
  return `${entry.ratio.toFixed(2)} × ${against}${entry.cpuRatio !== undefined ? ` (${entry.cpuRatio.toFixed(2)})` : ""}`;
}

// ---- Lighthouse ----

export type LighthouseResults = {
  date: string;
  lighthouse: string;
  chromium: string;
  formFactor: string;
  pages: {
    path: string;
    scores: Record<string, number | null>;
    metrics: Record<string, number | null>;
    failing?: string[];
    error?: string;
  }[];
};

export function lighthouseMarkdown(results: LighthouseResults): string[] {
  const lines = [
    `**Lighthouse ${results.lighthouse}** (${results.formFactor}, ${results.chromium}, ${results.date.slice(0, 10)}; \`npm run bench:lighthouse\`):`,
    "",
    "| Page | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  const score = (value: number | null | undefined) =>
    value === null || value === undefined ? "—" : String(Math.round(value * 100));
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? "—" : `${(value / 1000).toFixed(1)} s`;
  for (const page of results.pages) {
    if (page.error) {
      lines.push(`| ${page.path} | failed: ${page.error} | | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${page.path} | ${score(page.scores.performance)} | ${score(page.scores.accessibility)} | ${score(page.scores["best-practices"])} | ${score(page.scores.seo)} | ` +
        `${ms(page.metrics.fcp)} | ${ms(page.metrics.lcp)} | ${page.metrics.tbt === null || page.metrics.tbt === undefined ? "—" : `${page.metrics.tbt.toFixed(0)} ms`} | ` +
        `${page.metrics.cls === null || page.metrics.cls === undefined ? "—" : page.metrics.cls.toFixed(3)} |`,
    );
  }
  const failing = results.pages.filter((page) => page.failing?.length);
  if (failing.length > 0) {
    lines.push(
      "",
      `Audits not passed: ${failing.map((page) => `${page.path}: ${page.failing!.join(", ")}`).join("; ")}.`,
    );
  }
  return lines;
}

// ---- The chart ----

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Two panels side by side: requests per second on a log scale (each row with a mark at its
 * baseline), and CPU time per request split between the Node process and PostgreSQL.
 */
export function renderSvg(result: BenchResult): string {
  const rows = rowsOf(result);
  const rowHeight = 30;
  const top = 84;
  const labelWidth = 340;
  const panelA = { x: labelWidth, width: 420 };
  const panelB = { x: labelWidth + panelA.width + 170, width: 260 };
  const width = panelB.x + panelB.width + 130;
  const height = top + rows.length * rowHeight + 56;
  const maxRps = Math.max(...rows.map((row) => row.result.requestsPerSecond), 10);
  const decades = { low: 1, high: Math.ceil(Math.log10(maxRps)) };
  const xOf = (rps: number) =>
    panelA.x + (Math.max(0, Math.log10(Math.max(rps, 10)) - decades.low) / (decades.high - decades.low)) * panelA.width;
  const maxCpu = Math.max(
    ...rows.map((row) => row.result.cpuMsPerRequest.server + (row.result.cpuMsPerRequest.database ?? 0)),
    0.01,
  );
  const colour = (row: Row) =>
    row.id.startsWith("baseline")
      ? "#9aa0a6"
      : row.id === "checkout"
        ? "#d97706"
        : row.id.startsWith("api")
          ? "#1f9d55"
          : "#2f6fdf";

  const parts: string[] = [];
  const bottom = top + rows.length * rowHeight;
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">Waqt bench ${escape(result.date.slice(0, 10))}: ${result.seed.products.toLocaleString("en")} products; ${result.machine.cpus} × ${escape(result.machine.cpu)}, Node ${escape(result.machine.node)}</text>`,
    `<text x="${panelA.x}" y="${top - 30}" font-weight="600">Requests per second (log scale; | = its baseline, measured around it)</text>`,
    `<text x="${panelB.x}" y="${top - 30}" font-weight="600">CPU ms per request</text>`,
    `<rect x="${panelB.x}" y="${top - 22}" width="10" height="10" fill="#2f6fdf"/><text x="${panelB.x + 14}" y="${top - 13}">Node (store process)</text>`,
    `<rect x="${panelB.x + 150}" y="${top - 22}" width="10" height="10" fill="#f59e0b"/><text x="${panelB.x + 164}" y="${top - 13}">PostgreSQL</text>`,
  );
  for (let decade = decades.low; decade <= decades.high; decade++) {
    const x = xOf(10 ** decade);
    parts.push(
      `<line x1="${x.toFixed(1)}" y1="${top}" x2="${x.toFixed(1)}" y2="${bottom}" stroke="#e3e3e3"/>`,
      `<text x="${x.toFixed(1)}" y="${bottom + 14}" text-anchor="middle" fill="#777">${(10 ** decade).toLocaleString("en")}</text>`,
    );
  }
  rows.forEach((row, index) => {
    const y = top + index * rowHeight;
    const entry = row.result;
    const end = xOf(entry.requestsPerSecond);
    const label = `${entry.requestsPerSecond.toFixed(0)}${entry.ratio !== undefined ? ` · ${entry.ratio.toFixed(2)}×` : ""} · p99 ${entry.latencyMs.p99} ms`;
    const node = (entry.cpuMsPerRequest.server / maxCpu) * panelB.width;
    const database = ((entry.cpuMsPerRequest.database ?? 0) / maxCpu) * panelB.width;
    const cpuLabel = `${entry.cpuMsPerRequest.server.toFixed(2)} + ${entry.cpuMsPerRequest.database === null ? "?" : entry.cpuMsPerRequest.database.toFixed(2)}`;
    parts.push(
      `<text x="${labelWidth - 10}" y="${y + 19}" text-anchor="end">${escape(row.title)}</text>`,
      `<rect x="${panelA.x}" y="${y + 6}" width="${Math.max(1, end - panelA.x).toFixed(1)}" height="${rowHeight - 12}" fill="${colour(row)}"/>`,
    );
    const baselineRps = entry.ratio ? entry.requestsPerSecond / entry.ratio : null;
    if (baselineRps) {
      const mark = xOf(baselineRps);
      parts.push(
        `<line x1="${mark.toFixed(1)}" y1="${y + 3}" x2="${mark.toFixed(1)}" y2="${y + rowHeight - 3}" stroke="#333" stroke-width="2"/>`,
      );
    }
    parts.push(
      `<text x="${(Math.max(end, baselineRps ? xOf(baselineRps) : 0) + 6).toFixed(1)}" y="${y + 19}" fill="#333">${escape(label)}</text>`,
      `<rect x="${panelB.x}" y="${y + 6}" width="${node.toFixed(1)}" height="${rowHeight - 12}" fill="#2f6fdf"/>`,
      `<rect x="${(panelB.x + node).toFixed(1)}" y="${y + 6}" width="${database.toFixed(1)}" height="${rowHeight - 12}" fill="#f59e0b"/>`,
      `<text x="${(panelB.x + node + database + 6).toFixed(1)}" y="${y + 19}" fill="#333">${escape(cpuLabel)}</text>`,
    );
  });
  parts.push(
    `<text x="12" y="${height - 14}" fill="#555">Grey: baselines (bare Express JSON; bare React Router page). Blue: pages. Green: API. Orange: checkout (orders placed). Label: req/s · × baseline · p99.</text>`,
    "</svg>",
  );
  return parts.join("\n") + "\n";
}

// ---- Image weight ----

export type ImageWeight = {
  page: string;
  path: string;
  viewport: string;
  /** Bytes of every image loaded before any scrolling, and after scrolling to the end. */
  firstScreenBytes: number;
  wholePageBytes: number;
  images: number;
  photoFiles: string[];
  /** What the same photos would have cost served as uploaded (one original per photo shown). */
  originalsBytes: number;
};

export type ImageResults = {
  date: string;
  chromium: string;
  machine: string;
  photos: { count: number; originalBytes: number[]; uploadSeconds: number[]; storedBytesPerPhoto: number };
  viewports: { id: string; title: string }[];
  pages: ImageWeight[];
};

/** Bytes as kilobytes (megabytes from 1 MB), one decimal. */
export const kbText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;

/** The table of bench/results/images.md (also in bench.md). */
export function imagesMarkdown(results: ImageResults): string[] {
  const cell = (page: string, viewport: string) => {
    const found = results.pages.find((entry) => entry.page === page && entry.viewport === viewport);
    if (!found) return "—";
    return found.wholePageBytes === found.firstScreenBytes
      ? kbText(found.firstScreenBytes)
      : `${kbText(found.firstScreenBytes)} / ${kbText(found.wholePageBytes)}`;
  };
  const pageNames = [...new Set(results.pages.map((entry) => entry.page))];
  const originals = (page: string) =>
    Math.max(...results.pages.filter((entry) => entry.page === page).map((entry) => entry.originalsBytes));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return [
    `**Image bytes per page** (${results.date.slice(0, 10)}, ${results.chromium}, ${results.machine}; \`npm run bench:images\`): ` +
      `${results.photos.count} watches with 12-megapixel phone photos (${results.photos.originalBytes.map((bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`).join(", ")} as uploaded; ` +
      `each took ${mean(results.photos.uploadSeconds).toFixed(1)} s to upload and process on average, and keeps ${kbText(results.photos.storedBytesPerPhoto)} of files), ` +
      "the rest the drawn SVG watches. Every image the page loaded, first screen / after scrolling to the end (one figure when both are the same):",
    "",
    `| Page | ${results.viewports.map((viewport) => viewport.title).join(" | ")} | The photos shown, as uploaded |`,
    `|---|${results.viewports.map(() => "--:").join("|")}|--:|`,
    ...pageNames.map(
      (page) =>
        `| ${page} | ${results.viewports.map((viewport) => cell(page, viewport.id)).join(" | ")} | ${kbText(originals(page))} |`,
    ),
  ];
}
