import type { Knex } from "knex";

/**
 * Every cash-on-delivery order confirmed by its customer (docs/product.md, "Confirming an order"):
 * - the order's confirmation: `pending` until the customer (by WhatsApp, SMS or the link) or an
 *   admin (by phone) confirms it, or the customer cancels it from the confirmation; by whom,
 *   through which channel and when. `confirmed_at` stays the moment of any confirmation.
 *   Orders confirmed by phone before this read as confirmed by an admin by phone.
 * - the language of the order's messages, and the account's choice for its next checkout
 *   (null: Urdu for a Pakistani mobile number, checkout decides).
 * - the SHA-256 of the order's confirmation token (the token itself is never stored: it is
 *   derived from the store's secret when a message is written, server/modules/orders/order-confirmation.ts).
 * - why an order was cancelled, when the store did it ("Not confirmed").
 * - `order_messages`: each text sent (or to send) about an order, its channel, its provider's
 *   id and what the provider reported; `order_message_replies`: what customers answered, once
 *   per provider's message id (a webhook delivered twice changes nothing the second time).
 * - A text written by any path (checkout's one statement, a flow, an admin's "Send again") gets
 *   its send job in the same statement, as the outbox's mails do (migration 20261125000026): one
 *   add_jobs call per INSERT statement, keyed `text:<id>`, carrying the text's id alone.
 */
/**
 * Tries of a text before it is given up (and SMS takes over from WhatsApp): the queue waits
 * exp(attempt) seconds between them, so the last comes about six hours after the first.
 */
const TEXT_SEND_ATTEMPTS = 10;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.string("confirmation_status", 16).notNullable().defaultTo("pending");
    t.string("confirmation_by", 16);
    t.string("confirmation_channel", 16);
    t.timestamp("confirmation_at", { useTz: true });
    t.string("language", 2);
    t.string("confirmation_token_hash", 64).unique();
    t.string("cancel_reason", 100);
  });
  await knex.raw(`UPDATE orders SET confirmation_status = 'confirmed', confirmation_by = 'admin',
                         confirmation_channel = 'phone', confirmation_at = confirmed_at
                   WHERE confirmed_at IS NOT NULL`);
  await knex.raw("UPDATE orders SET language = CASE WHEN phone IS NULL THEN 'en' ELSE 'ur' END");
  await knex.schema.alterTable("orders", (t) => {
    t.string("language", 2).notNullable().defaultTo("ur").alter();
    t.check("confirmation_status IN ('pending', 'confirmed', 'cancelled')", [], "orders_confirmation_status_valid");
    t.check("confirmation_by IN ('customer', 'admin')", [], "orders_confirmation_by_valid");
    t.check("confirmation_channel IN ('whatsapp', 'sms', 'link', 'phone')", [], "orders_confirmation_channel_valid");
    t.check(
      "(confirmation_status = 'pending') = (confirmation_by IS NULL AND confirmation_channel IS NULL AND confirmation_at IS NULL)",
      [],
      "orders_confirmation_complete",
    );
    t.check("language IN ('en', 'ur')", [], "orders_language_valid");
  });
  await knex.schema.alterTable("users", (t) => {
    t.string("language", 2);
    t.check("language IN ('en', 'ur')", [], "users_language_valid");
  });

  await knex.schema.createTable("order_messages", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("order_id").notNullable().references("orders.id").onDelete("CASCADE");
    t.string("channel", 16).notNullable();
    t.string("kind", 16).notNullable();
    t.string("language", 2).notNullable();
    // The receiver's number as the order holds it (+923…).
    t.string("phone", 16).notNullable();
    t.string("provider_message_id", 100).unique();
    t.string("status", 16).notNullable().defaultTo("queued");
    t.integer("attempts").notNullable().defaultTo(0);
    t.string("error", 500);
    t.timestamp("sent_at", { useTz: true });
    t.timestamp("delivered_at", { useTz: true });
    t.timestamp("read_at", { useTz: true });
    t.timestamp("failed_at", { useTz: true });
    t.timestamps(true, true);
    t.check("channel IN ('whatsapp', 'sms', 'file')", [], "order_messages_channel_valid");
    t.check("kind IN ('confirmation', 'reminder', 'cancellation')", [], "order_messages_kind_valid");
    t.check("language IN ('en', 'ur')", [], "order_messages_language_valid");
    t.check("status IN ('queued', 'sent', 'delivered', 'read', 'failed')", [], "order_messages_status_valid");
    t.check("attempts >= 0", [], "order_messages_attempts_not_negative");
  });
  await knex.raw("CREATE INDEX order_messages_order_idx ON order_messages (order_id, created_at)");
  await knex.raw(`
    CREATE FUNCTION order_messages_send_jobs_for_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_jobs(ARRAY(
        SELECT ROW('send-text', json_build_object('messageId', id), NULL, NULL, ${TEXT_SEND_ATTEMPTS},
                   'text:' || id, NULL, NULL)::graphile_worker.job_spec
          FROM new_rows WHERE status = 'queued'));
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER order_messages_send_jobs AFTER INSERT ON order_messages
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION order_messages_send_jobs_for_new_rows()`);

  await knex.schema.createTable("order_message_replies", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("order_id").references("orders.id").onDelete("CASCADE");
    t.string("channel", 16).notNullable();
    // The provider's id of the reply: a webhook delivered again finds it and changes nothing.
    t.string("provider_message_id", 100).notNullable().unique();
    t.string("phone", 16).notNullable();
    t.string("body", 500).notNullable();
    // What the reply did: confirmed, cancelled, or nothing (an answer the store did not understand, or too late).
    t.string("action", 16).notNullable();
    t.timestamp("received_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("channel IN ('whatsapp', 'sms')", [], "order_message_replies_channel_valid");
    t.check("action IN ('confirmed', 'cancelled', 'none')", [], "order_message_replies_action_valid");
  });
  await knex.raw("CREATE INDEX order_message_replies_order_idx ON order_message_replies (order_id, received_at)");
  // The SMS reply's question: the newest order of this phone still waiting for its answer.
  await knex.raw(
    "CREATE INDEX orders_awaiting_confirmation_idx ON orders (phone, created_at DESC) WHERE status = 'Pending' AND confirmation_status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS orders_awaiting_confirmation_idx");
  await knex.raw("DROP INDEX IF EXISTS orders_confirmation_due_idx");
  await knex.schema.dropTable("order_message_replies");
  await knex.raw("DROP TRIGGER order_messages_send_jobs ON order_messages");
  await knex.raw("DROP FUNCTION order_messages_send_jobs_for_new_rows()");
  await knex.schema.dropTable("order_messages");
  await knex.schema.alterTable("users", (t) => {
    t.dropChecks(["users_language_valid"]);
    t.dropColumn("language");
  });
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks([
      "orders_confirmation_status_valid",
      "orders_confirmation_by_valid",
      "orders_confirmation_channel_valid",
      "orders_confirmation_complete",
      "orders_language_valid",
    ]);
    for (const column of [
      "confirmation_status",
      "confirmation_by",
      "confirmation_channel",
      "confirmation_at",
      "language",
      "confirmation_token_hash",
      "cancel_reason",
    ]) {
      t.dropColumn(column);
    }
  });
}
