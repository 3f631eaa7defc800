import { connectionUrlOf, type Database } from "../db/database";
import { installJobQueue } from "./job-runner";

/**
 * The job queue's schema first (its library's own migrations), then the store's: the store's
 * triggers add jobs (docs/decisions/2026-11-25-job-queue.md). Here rather than in server/db, which
 * knows nothing of the queue.
 */
export async function migrateToLatest(knex: Database): Promise<string[]> {
  await installJobQueue(connectionUrlOf(knex));
  const [, applied] = (await knex.migrate.latest()) as [number, string[]];
  return applied;
}
