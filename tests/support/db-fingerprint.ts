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
  const counted = tables.filter(({ tableName }) => !BOOKKEEPING_TABLES.has(tableName));
  // One statement for every table: a round trip per table made the tests that take a fingerprint
  // around each of many requests slow enough to time out on a loaded machine.
  const { rows } = await db.raw<{ rows: { tableName: string; count: number; digest: string | null }[] }>(
    counted
      .map(
        () =>
          `SELECT ? AS "tableName", count(*)::int AS count, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ?? t`,
      )
      .join(" UNION ALL "),
    counted.flatMap(({ tableName }) => [tableName, tableName]),
  );
  const fingerprint: Record<string, string> = {};
  for (const { tableName, count, digest } of rows) fingerprint[tableName] = `${count}:${digest ?? ""}`;
  return fingerprint;
}
