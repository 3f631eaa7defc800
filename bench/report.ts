import type { LastUnitsResult, StockCheck } from "./checkout";
import type { SearchTermTiming } from "./database";
import type { LoadResult } from "./load";
import type { ProfileSummary } from "./profile";
import { imagesMarkdown, type ImageResults } from "./image-results";
import { lighthouseMarkdown, type LighthouseResults } from "./lighthouse-results";

/**
 * The bench's results as JSON and as a Markdown report; the issue's targets are judged in
 * targets.ts, the chart drawn in chart.ts.
 */

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

export const fixed = (value: number, digits = 0) =>
  value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A search term's cost the first time and again (results written before the search cache have only the first). */
const termTiming = (entry: SearchTermTiming) =>
  `"${entry.term}" ${entry.ms.toFixed(1)} ms` +
  (entry.againMs === undefined ? "" : ` then ${entry.againMs.toFixed(1)} ms`) +
  ` (${fixed(entry.matches)} matches)`;

export type Row = { id: string; title: string; result: LoadResult; baselineRuns?: LoadResult[] };

export function rowsOf(result: BenchResult): Row[] {
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
