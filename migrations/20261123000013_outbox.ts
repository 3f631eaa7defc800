import type { Knex } from "knex";

/**
 * The outbox: every mail the store sends is a row here, written in the same transaction as the
 * event that causes it (an order, a status change, a reset request), so an order never exists
 * without its mail and a rolled-back action sends nothing (docs/decisions/2026-11-23-outbox.md).
 * The sender of each app server takes queued rows with FOR UPDATE SKIP LOCKED, one at a time, so
 * two servers never send one message twice. A message that carries a secret (a reset link) has
 * its body emptied once it is sent or has failed for good.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("outbox", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    // What the message is about (order-placed, password-reset, ...), for the admin list.
    t.string("kind", 40).notNullable();
    t.string("recipient", 254).notNullable();
    t.string("subject", 300).notNullable();
    // Null once purged (a message that carried a secret, after it was sent or failed for good).
    t.text("text_body");
    t.text("html_body");
    // Extra headers, e.g. List-Unsubscribe on stock alerts.
    t.jsonb("headers").notNullable().defaultTo("{}");
    t.boolean("secret").notNullable().defaultTo(false);
    t.string("state", 16).notNullable().defaultTo("queued");
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("next_attempt_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string("last_error", 500);
    t.timestamp("sent_at", { useTz: true });
    t.timestamps(true, true);
    t.check("state in ('queued', 'sent', 'failed')", [], "outbox_state_valid");
    t.check("attempts >= 0", [], "outbox_attempts_not_negative");
  });
  // The sender's question: what is due now (a small partial index, whatever the history's size).
  await knex.raw("CREATE INDEX outbox_due_idx ON outbox (next_attempt_at, id) WHERE state = 'queued'");
  await knex.raw("CREATE INDEX outbox_created_at_idx ON outbox (created_at DESC, id DESC)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("outbox");
}
