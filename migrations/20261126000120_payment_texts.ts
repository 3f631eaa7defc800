import type { Knex } from "knex";

/**
 * The texts of an order paid in advance (docs/product.md, "Paying in advance"), sent as the
 * confirmation's are (order_messages, its send job): placed with what to pay and where, the
 * payment verified or rejected, and the order cancelled unpaid. Only the kinds' list grows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(`
    ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid
      CHECK (kind IN ('confirmation', 'reminder', 'cancellation',
                      'payment-awaited', 'payment-verified', 'payment-rejected', 'not-paid'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex("order_messages")
    .whereIn("kind", ["payment-awaited", "payment-verified", "payment-rejected", "not-paid"])
    .del();
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(
    "ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid CHECK (kind IN ('confirmation', 'reminder', 'cancellation'))",
  );
}
