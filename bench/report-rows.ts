import type { Knex } from "knex";
import type { LoadResult } from "./load";

/** How bench/reports.ts judges a row and when it starts one. */

/** The p99 each report must stay under (docs/product.md, "Reports"). */
export const REPORT_P99_TARGET_MS = 200;

/**
 * Whether a row meets the target: answers were measured (a row with none has no p99 at all; autocannon
 * reports 0), none failed, and their p99 is under the target.
 */
export function meetsTarget(result: LoadResult): boolean {
  return result.requests > 0 && result.errors === 0 && result.latencyMs.p99 < REPORT_P99_TARGET_MS;
}

/** A row's start waits at most this long for PostgreSQL to be idle; past it, the row starts (its waited time says so). */
const IDLE_WAIT_MS = 120_000;

/**
 * Waits until no other query of the bench's database is running (pg_stat_activity): a request
 * that autocannon gave up on at the end of a row keeps its statements running in PostgreSQL,
 * which would otherwise slow the next row down. Answers the seconds waited.
 */
export async function waitForIdleDatabase(db: Knex): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { rows } = await db.raw<{ rows: { running: number }[] }>(
      `SELECT count(*)::int AS running FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0]!.running === 0 || Date.now() - started > IDLE_WAIT_MS) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until the cluster has archived the WAL that the seed wrote (its archive command, a node
 * process per 16 MB segment, ran through the first rows otherwise, its CPU counted in the
 * machine's load). Answers the seconds waited; gives up after IDLE_WAIT_MS.
 */
export async function waitForArchivedWal(segmentsToArchive: () => number): Promise<number> {
  const started = Date.now();
  while (segmentsToArchive() > 0 && Date.now() - started < IDLE_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return (Date.now() - started) / 1000;
}
