import type { TestServer } from "./test-server";

/**
 * Tables whose rows change without any business data changing: sign-ins, API tokens, rate-limit
 * counters, migration bookkeeping. Every other table counts, including tables added later.
 */
const BOOKKEEPING_TABLES = new Set([
  "sessions",
  "api_tokens",
  "rate_limits",
  "knex_migrations",
  "knex_migrations_lock",
]);

/**
 * A digest of every business table (row count and a hash of every row, every column), so that
 * a test can say "this request changed nothing" without knowing which table it might touch.
 */
export async function databaseFingerprint(server: TestServer): Promise<Record<string, string>> {
  const db = server.database.db;
  const { rows: tables } = await db.raw<{ rows: { tableName: string }[] }>(
    `SELECT table_name AS "tableName" FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const fingerprint: Record<string, string> = {};
  for (const { tableName } of tables) {
    if (BOOKKEEPING_TABLES.has(tableName)) continue;
    const { rows } = await db.raw<{ rows: { count: number; digest: string | null }[] }>(
      `SELECT count(*)::int AS count, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ?? t`,
      [tableName],
    );
    fingerprint[tableName] = `${rows[0]!.count}:${rows[0]!.digest ?? ""}`;
  }
  return fingerprint;
}
