import type { Knex } from "knex";

/**
 * The store's answer to a written reply ("1", "nahi") from a phone with several orders waiting
 * for an answer (docs/product.md, "Confirming an order"): it acts on none and lists each waiting
 * order's link. It is written on the newest of them, and sent as the confirmation's texts are.
 */
const KINDS_BEFORE = `'confirmation', 'reminder', 'cancellation',
                      'payment-awaited', 'payment-verified', 'payment-rejected', 'not-paid',
                      'delivery-attempt'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(
    `ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid CHECK (kind IN (${KINDS_BEFORE}, 'choose-order'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex("order_messages").where({ kind: "choose-order" }).del();
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(
    `ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid CHECK (kind IN (${KINDS_BEFORE}))`,
  );
}
