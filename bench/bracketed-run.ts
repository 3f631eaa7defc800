import { runLoad, warmUp, type LoadPlan, type LoadResult } from "./load";

/**
 * One scenario between two runs of its baseline (B S B), with its line on the console. The machine
 * is shared and its load drifts, so each scenario's baseline is measured right before and right
 * after it (half the duration each, same connections): the ratio compares runs seconds apart.
 */
export async function runBracketed(plan: LoadPlan, baselinePlan: LoadPlan): Promise<LoadResult> {
  process.stdout.write(`  ${plan.id.padEnd(18)} `);
  await warmUp(plan);
  const base = { ...baselinePlan, duration: Math.max(1, plan.duration / 2) };
  const before = await runLoad(base, { warmUp: false });
  const result = await runLoad(plan, { warmUp: false });
  const after = await runLoad(base, { warmUp: false });
  result.bracket = { before, after };
  result.ratio = result.requestsPerSecond / ((before.requestsPerSecond + after.requestsPerSecond) / 2);
  const baseCpu = (before.cpuMsPerRequest.server + after.cpuMsPerRequest.server) / 2;
  if (result.cpuMsPerRequest.server > 0) result.cpuRatio = baseCpu / result.cpuMsPerRequest.server;
  console.log(
    `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s (${result.ratio.toFixed(2)} × ${before.requestsPerSecond.toFixed(0)}/${after.requestsPerSecond.toFixed(0)})` +
      `  p50 ${result.latencyMs.p50} ms  p99 ${result.latencyMs.p99} ms  errors ${result.errors}` +
      (result.queries ? `  queries/req ${result.queries.perRequest.toFixed(1)} (max ${result.queries.max})` : ""),
  );
  return result;
}
