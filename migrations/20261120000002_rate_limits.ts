import type { Knex } from "knex";

/**
 * Fixed-window counters for rate limits (log-in, sign-up, contact). Kept in PostgreSQL so that
 * several app servers share one count per client.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("rate_limits", (t) => {
    t.string("key", 300).primary();
    t.timestamp("window_start", { useTz: true }).notNullable();
    t.integer("hits").notNullable();
  });
  await knex.raw("CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("rate_limits");
}
