import type { Knex } from "knex";

/**
 * A courier whose API fails is left alone for growing intervals (server/flows/courier-sync.ts):
 * the failures in a row, when it may be asked again and its last error, one row a courier, in the
 * database so that every app server skips it alike.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("courier_sync_backoff", (t) => {
    t.string("courier", 20).primary();
    t.integer("failures").notNullable().defaultTo(0);
    t.timestamp("retry_at", { useTz: true });
    t.text("last_error");
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("courier IN ('PostEx', 'Leopards')", [], "courier_sync_backoff_courier_valid");
    t.check("failures >= 0", [], "courier_sync_backoff_failures_not_negative");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("courier_sync_backoff");
}
