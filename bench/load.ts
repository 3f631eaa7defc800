import os from "node:os";
import autocannon from "autocannon";
import { clusterCpuMs, cpuMs, rssMb, type Started } from "./processes";

/** One load run with autocannon, and what the server did meanwhile (CPU, memory, queries). */

export type LoadRequest = autocannon.Request;

export type LoadPlan = {
  id: string;
  title: string;
  /** The baseline whose throughput this scenario is compared with. */
  baseline: "express" | "page" | null;
  server: Started;
  connections: number;
  /** Seconds measured, or with `amount` that many requests whatever the time. */
  duration: number;
  amount?: number;
  /** Seconds of warm-up, or with `warmupAmount` that many requests. */
  warmup: number;
  warmupAmount?: number;
  headers?: Record<string, string>;
  requests: LoadRequest[];
  /** Statuses that are the expected answer (default: 2xx only). */
  expected?: (status: number) => boolean;
  /** Called for every answer. */
  onAnswer?: (status: number) => void;
  /** Between the warm-up and the measured run. */
  beforeMeasure?: () => void;
  postmasterPid: number | null;
};

export type Latency = { mean: number; p50: number; p90: number; p99: number; max: number };

export type LoadResult = {
  id: string;
  title: string;
  baseline: "express" | "page" | null;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: Latency;
  /** Connection errors, timeouts and unexpected statuses. */
  errors: number;
  statusCodes: Record<string, number>;
  bytesPerRequest: number;
  /** Share of answers with `X-Page-Cache: hit` among those that carry the header; null when none does. */
  cacheHitRate: number | null;
  queries: { perRequest: number; max: number; histogram: Record<string, number> } | null;
  rssMb: { start: number | null; max: number | null };
  /** CPU time per answered request: the server process, and PostgreSQL when the cluster is ours. */
  cpuMsPerRequest: { server: number; database: number | null; loadGenerator: number };
  /** The machine's 1-minute load average when the run ended (other work on the machine shows here). */
  loadAverage: number;
  /** The baseline, measured just before and just after this run with the same connections. */
  bracket?: { before: LoadResult; after: LoadResult };
  /** Requests per second over the baseline's (the mean of the two around this run). */
  ratio?: number;
  /** The baseline's server CPU per request over this one's: the ratio a CPU-bound server would reach, less noisy. */
  cpuRatio?: number;
};

/** The plan's warm-up alone (runLoad runs it first unless told not to). */
export async function warmUp(plan: LoadPlan): Promise<void> {
  if (!plan.warmupAmount && !(plan.warmup > 0)) return;
  await autocannon({
    url: plan.server.baseUrl,
    connections: plan.connections,
    ...(plan.warmupAmount ? { amount: plan.warmupAmount } : { duration: plan.warmup }),
    headers: plan.headers,
    requests: plan.requests,
  });
}

export async function runLoad(plan: LoadPlan, options: { warmUp?: boolean } = {}): Promise<LoadResult> {
  const url = plan.server.baseUrl;
  const statsUrl = `${url}/__bench/query-stats`;
  const counting = plan.server.name === "store";
  if (options.warmUp !== false) await warmUp(plan);

  plan.beforeMeasure?.();
  let lastAnswerAt = 0;
  let cacheHits = 0;
  let cacheMisses = 0;
  let unexpected = 0;
  const expected = plan.expected ?? ((status: number) => status >= 200 && status < 300);
  const requests = plan.requests.map((request) => ({
    ...request,
    onResponse: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string | string[]>,
    ) => {
      lastAnswerAt = performance.now();
      if (!expected(status)) unexpected += 1;
      const cache = headerValue(headers, "x-page-cache");
      if (cache === "hit") cacheHits += 1;
      else if (cache === "miss") cacheMisses += 1;
      if (typeof request.onResponse === "function") request.onResponse(status, body, context, headers as never);
      plan.onAnswer?.(status);
    },
  }));

  if (counting) await fetch(`${statsUrl}?reset`);
  const startRss = rssMb(plan.server.pid);
  let maxRss = startRss;
  const sampler = setInterval(() => {
    const rss = rssMb(plan.server.pid);
    if (rss !== null && (maxRss === null || rss > maxRss)) maxRss = rss;
  }, 250);
  const serverCpu = cpuMs(plan.server.pid);
  const databaseCpu = plan.postmasterPid ? clusterCpuMs(plan.postmasterPid) : null;
  const ownCpu = process.cpuUsage();
  const startedAt = performance.now();

  const result = await autocannon({
    url,
    connections: plan.connections,
    ...(plan.amount ? { amount: plan.amount } : { duration: plan.duration }),
    headers: plan.headers,
    requests: requests as LoadRequest[],
  });

  clearInterval(sampler);
  const ownUsage = process.cpuUsage(ownCpu);
  const serverCpuUsed = cpuMs(plan.server.pid) - serverCpu;
  const databaseCpuUsed =
    plan.postmasterPid && databaseCpu !== null ? clusterCpuMs(plan.postmasterPid) - databaseCpu : null;
  // The stats count a request when its response closes: let the last ones close.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stats = counting
    ? ((await (await fetch(statsUrl)).json()) as {
        requests: number;
        queries: number;
        max: number;
        histogram: Record<string, number>;
      })
    : null;

  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, value]) => [code, (value as { count: number }).count]),
  );
  const answered = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  // autocannon notices the end of a run by `amount` only at its next 1-second tick, so such a run
  // is timed here, from the start to the last answer.
  const seconds = plan.amount && lastAnswerAt > startedAt ? (lastAnswerAt - startedAt) / 1000 : result.duration;
  return {
    id: plan.id,
    title: plan.title,
    baseline: plan.baseline,
    connections: plan.connections,
    seconds,
    requests: answered,
    requestsPerSecond: answered / seconds,
    latencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors + unexpected,
    statusCodes,
    bytesPerRequest: answered ? result.throughput.total / answered : 0,
    cacheHitRate: cacheHits + cacheMisses > 0 ? cacheHits / (cacheHits + cacheMisses) : null,
    queries:
      stats && stats.requests > 0
        ? { perRequest: stats.queries / stats.requests, max: stats.max, histogram: stats.histogram }
        : null,
    rssMb: { start: startRss, max: maxRss },
    loadAverage: Number(os.loadavg()[0]!.toFixed(2)),
    cpuMsPerRequest: {
      server: answered ? serverCpuUsed / answered : 0,
      database: databaseCpuUsed !== null && answered ? databaseCpuUsed / answered : null,
      loadGenerator: answered ? (ownUsage.user + ownUsage.system) / 1000 / answered : 0,
    },
  };
}

function headerValue(headers: Record<string, string | string[]>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return String(Array.isArray(value) ? value[0] : value).toLowerCase();
  }
  return undefined;
}
