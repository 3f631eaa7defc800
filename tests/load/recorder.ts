import { round, statusClass, summarize, type LatencySummary, type Sent } from "./http-load";

/** One answer, without its body (a minute of load is tens of thousands of them). */
export type Entry = {
  kind: string;
  status: number;
  ms: number;
  startedAt: number;
  endedAt: number;
  error?: string;
  reusedSocket: boolean;
  gotHeaders: boolean;
  pageCache?: string;
};

export type Problem = { atMs: number; kind: string; path: string; status: number; error?: string; why: string };

/**
 * Keeps every answer of a scenario and the problems a judge found in them (the first 25 in
 * full, then a count), and sums them up for the report.
 */
export class Recorder {
  readonly entries: Entry[] = [];
  readonly problems: Problem[] = [];
  problemCount = 0;

  constructor(
    readonly origin: number,
    private readonly judge: (sent: Sent) => string | null,
  ) {}

  record = (sent: Sent) => {
    const entry: Entry = {
      kind: sent.kind,
      status: sent.status,
      ms: sent.ms,
      startedAt: sent.startedAt,
      endedAt: sent.endedAt,
      error: sent.error,
      reusedSocket: sent.reusedSocket,
      gotHeaders: sent.gotHeaders,
      pageCache: typeof sent.headers["x-page-cache"] === "string" ? sent.headers["x-page-cache"] : undefined,
    };
    this.entries.push(entry);
    const why = this.judge(sent);
    if (why) this.problem(sent, why);
  };

  problem(sent: Pick<Sent, "endedAt" | "kind" | "path" | "status" | "error">, why: string) {
    this.problemCount++;
    if (this.problems.length < 25) {
      this.problems.push({
        atMs: round(sent.endedAt - this.origin),
        kind: sent.kind,
        path: sent.path,
        status: sent.status,
        error: sent.error,
        why,
      });
    }
  }

  /** Entries whose answer ended within [from, to) (performance.now() times). */
  between(from: number, to: number): Entry[] {
    return this.entries.filter((entry) => entry.endedAt >= from && entry.endedAt < to);
  }
}

export type Summary = {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  byStatusClass: Record<string, number>;
  byStatus: Record<string, number>;
  byKind: Record<string, LatencySummary & { statuses: Record<string, number> }>;
  errors: Record<string, number>;
  pageCache?: { hits: number; misses: number; hitRatio: number };
};

export function summarizeEntries(entries: Entry[], seconds: number): Summary {
  const byStatusClass: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const kinds = new Map<string, Entry[]>();
  let hits = 0;
  let misses = 0;
  for (const entry of entries) {
    const cls = statusClass(entry as Sent);
    byStatusClass[cls] = (byStatusClass[cls] ?? 0) + 1;
    const status = entry.status === 0 ? "error" : String(entry.status);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (entry.error) {
      const key = entry.error.replace(/\d+ ms/, "N ms").slice(0, 80);
      errors[key] = (errors[key] ?? 0) + 1;
    }
    if (entry.pageCache === "hit") hits++;
    else if (entry.pageCache === "miss") misses++;
    const list = kinds.get(entry.kind) ?? [];
    list.push(entry);
    kinds.set(entry.kind, list);
  }
  const byKind: Summary["byKind"] = {};
  for (const [kind, list] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const statuses: Record<string, number> = {};
    for (const entry of list) {
      const status = entry.status === 0 ? "error" : String(entry.status);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    byKind[kind] = { ...summarize(list.map((entry) => entry.ms)), statuses };
  }
  return {
    requests: entries.length,
    seconds: round(seconds, 2),
    requestsPerSecond: round(entries.length / seconds),
    latencyMs: summarize(entries.map((entry) => entry.ms)),
    byStatusClass,
    byStatus,
    byKind,
    errors,
    ...(hits + misses > 0 ? { pageCache: { hits, misses, hitRatio: round(hits / (hits + misses), 3) } } : {}),
  };
}
