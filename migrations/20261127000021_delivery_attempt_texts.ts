import type { Knex } from "knex";

/**
 * The customer's text about a delivery attempt with a reason (server/flows/courier-sync.ts writes
 * it, server/flows/order-texts.ts sends it as the confirmation's): a new kind, and the courier's
 * event it tells of, whose courier, tracking number and reason the text is written with when it is
 * sent (and again by SMS when WhatsApp fails). Only such a text names an event.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(`
    ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid
      CHECK (kind IN ('confirmation', 'reminder', 'cancellation',
                      'payment-awaited', 'payment-verified', 'payment-rejected', 'not-paid',
                      'delivery-attempt'))`);
  await knex.schema.alterTable("order_messages", (t) => {
    t.uuid("shipment_event_id").references("shipment_events.id").onDelete("CASCADE");
    t.check("(kind = 'delivery-attempt') = (shipment_event_id IS NOT NULL)", [], "order_messages_attempt_has_event");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex("order_messages").where({ kind: "delivery-attempt" }).del();
  await knex.schema.alterTable("order_messages", (t) => {
    t.dropChecks(["order_messages_attempt_has_event"]);
    t.dropColumn("shipment_event_id");
  });
  await knex.raw("ALTER TABLE order_messages DROP CONSTRAINT order_messages_kind_valid");
  await knex.raw(`
    ALTER TABLE order_messages ADD CONSTRAINT order_messages_kind_valid
      CHECK (kind IN ('confirmation', 'reminder', 'cancellation',
                      'payment-awaited', 'payment-verified', 'payment-rejected', 'not-paid'))`);
}
