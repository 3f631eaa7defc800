import type { Knex } from "knex";

/**
 * Following a booked parcel (docs/couriers.md; server/flows/courier-sync.ts):
 * - `shipment_events`: each status the courier reported for a parcel, as it said it (text, code,
 *   its time, the reason of an attempt) and as the store reads it (`status`: booked, picked-up,
 *   in-transit, out-for-delivery, attempted, delivered, returned, cancelled; null for words the
 *   store does not know). `event_key` (the courier's time and code, or its words without a code)
 *   is unique per shipment, so a sync that sees an event twice adds nothing. An event without a
 *   time (PostEx's guide gives none) is keyed by its place in the history instead.
 * - `shipments.stage` and `stage_at`: where the parcel is now (its last known event), and
 *   `synced_at`, when the courier last answered for it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("shipment_events", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("shipment_id").notNullable().references("shipments.id").onDelete("CASCADE");
    t.uuid("order_id").notNullable().references("orders.id").onDelete("CASCADE");
    t.timestamp("at", { useTz: true });
    t.timestamp("seen_at", { useTz: true }).notNullable();
    t.integer("position").notNullable();
    t.string("status", 20);
    t.string("code", 20);
    t.string("text", 300).notNullable();
    t.string("reason", 300);
    t.string("event_key", 400).notNullable();
    t.check(
      "status IN ('booked', 'picked-up', 'in-transit', 'out-for-delivery', 'attempted', 'delivered', 'returned', 'cancelled')",
      [],
      "shipment_events_status_valid",
    );
    t.unique(["shipment_id", "event_key"], { indexName: "shipment_events_once" });
  });
  await knex.raw("CREATE INDEX shipment_events_order_idx ON shipment_events (order_id)");
  await knex.schema.alterTable("shipments", (t) => {
    t.string("stage", 20);
    t.timestamp("stage_at", { useTz: true });
    t.timestamp("synced_at", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("shipments", (t) => {
    t.dropColumn("stage");
    t.dropColumn("stage_at");
    t.dropColumn("synced_at");
  });
  await knex.schema.dropTable("shipment_events");
}
