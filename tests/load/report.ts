import type { machine } from "./environment";
import type { ScenarioResult } from "./scenarios";

export type LoadReport = {
  command: string;
  machine: ReturnType<typeof machine>;
  totalSeconds: number;
  passed: boolean;
  scenarios: ScenarioResult[];
  serverLog: Record<string, number>;
};

/** bench/results/load.md: the machine, then per scenario its checks, figures and latencies. */
export function renderMarkdown(report: LoadReport): string {
  const { machine } = report;
  const lines: string[] = [
    "# Load and faults (`npm run test:load`)",
    "",
    `${report.passed ? "**PASSED**" : "**FAILED**"} — ${machine.date}, ${report.totalSeconds} s in all, \`${report.command}\``,
    "",
    `Machine: ${machine.nproc} CPUs (${machine.cpuModel}), ${machine.ramGiB} GiB RAM, Node ${machine.node}, ${machine.os}; ` +
      `load average at the end ${machine.loadAverage.join(" / ")} (the cores are shared: figures are noisy, the checks are what pass or fail).`,
    "",
    "Client and server on loopback on the same machine; the client is a keep-alive `http.Agent` loop (tests/load).",
    "",
  ];
  for (const scenario of report.scenarios) {
    const { summary } = scenario;
    lines.push(`## ${scenario.name} — ${scenario.passed ? "passed" : "FAILED"}`, "");
    lines.push("| check | result | detail |", "|---|---|---|");
    for (const check of scenario.checks)
      lines.push(`| ${check.check} | ${check.passed ? "ok" : "**FAILED**"} | ${check.detail ?? ""} |`);
    lines.push("");
    lines.push(
      `${summary.requests} requests in ${summary.seconds} s: **${summary.requestsPerSecond} requests/s**; latency ms ` +
        `p50 ${summary.latencyMs.p50}, p90 ${summary.latencyMs.p90}, **p99 ${summary.latencyMs.p99}**, max ${summary.latencyMs.max}. ` +
        `By status: ${Object.entries(summary.byStatus)
          .map(([status, count]) => `${status}: ${count}`)
          .join(", ")}.` +
        (summary.pageCache
          ? ` Guest page cache: ${summary.pageCache.hits} hits, ${summary.pageCache.misses} misses.`
          : ""),
      "",
    );
    lines.push(
      Object.entries(scenario.figures)
        .map(([name, value]) => `${name} ${value}`)
        .join(" · "),
      "",
    );
    lines.push(
      "| request | count | p50 ms | p90 ms | p99 ms | max ms | statuses |",
      "|---|---:|---:|---:|---:|---:|---|",
    );
    for (const [kind, stats] of Object.entries(summary.byKind)) {
      const statuses = Object.entries(stats.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(" ");
      lines.push(
        `| ${kind} | ${stats.count} | ${stats.p50} | ${stats.p90} | ${stats.p99} | ${stats.max} | ${statuses} |`,
      );
    }
    lines.push("");
    if (Object.keys(summary.errors).length > 0) {
      lines.push(
        `Connection-level outcomes: ${Object.entries(summary.errors)
          .map(([error, count]) => `${error} ×${count}`)
          .join("; ")}`,
        "",
      );
    }
    if (scenario.problemCount > 0) {
      lines.push(`Problems (${scenario.problemCount}; the first ${scenario.problems.length}):`, "");
      for (const problem of scenario.problems) {
        lines.push(
          `- at ${problem.atMs} ms ${problem.kind} ${problem.path}: ${problem.status} ${problem.error ?? ""} — ${problem.why}`,
        );
      }
      lines.push("");
    }
  }
  lines.push(
    `Server log (LOG_LEVEL=warn), lines by level and message: ${
      Object.entries(report.serverLog)
        .map(([message, count]) => `${message} ×${count}`)
        .join("; ") || "none"
    }. Every 503 is one "request errored" line of the request log (error); the API's are also a "database unavailable" (warn).`,
    "",
  );
  return `${lines.join("\n")}\n`;
}
