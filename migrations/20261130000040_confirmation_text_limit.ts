import type { Knex } from "knex";

/**
 * At most 3 confirmation requests to one mobile number in any 24 hours, whatever accounts place
 * the orders (docs/product.md, "Confirming an order"; docs/decisions/2026-11-29-texts-to-a-number.md):
 * - `orders.confirmation_text_limited`: the order was placed without its confirmation text because
 *   its number had had 3 in the last 24 hours ("text limit" for the admin); false for every order
 *   before, which all got theirs;
 * - an index of the confirmation texts by number and time, which checkout counts under the phone's
 *   lock.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.boolean("confirmation_text_limited").notNullable().defaultTo(false);
  });
  await knex.raw(
    "CREATE INDEX order_messages_confirmation_phone_idx ON order_messages (phone, created_at) WHERE kind = 'confirmation'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS order_messages_confirmation_phone_idx");
  await knex.schema.alterTable("orders", (t) => {
    t.dropColumn("confirmation_text_limited");
  });
}
