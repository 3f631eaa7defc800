import type { Knex } from "knex";

/**
 * Parcels booked through a courier's API (docs/decisions/2026-11-26-courier-booking.md):
 * - `shipments`: each booking attempt of an order, written and committed before the courier is
 *   called. `state` is 'booking' while the call runs, 'in-doubt' when the courier did not answer
 *   (it may have booked), 'booked', 'refused' (with the courier's words) or 'cancelled'. At most
 *   one live attempt (booking, in doubt or booked) an order: the unique index is the lock that
 *   keeps a second press, a retry or a second admin from booking twice.
 * - `courier_cities`: each courier's city list as its API gave it, kept a day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("shipments", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("order_id").notNullable().references("id").inTable("orders").onDelete("CASCADE");
    t.string("courier", 20).notNullable();
    t.string("state", 12).notNullable();
    t.string("reference", 20).notNullable();
    t.string("city_name", 100).notNullable();
    t.string("city_id", 20);
    t.string("tracking_number", 40);
    t.text("airway_bill_url");
    t.text("error");
    t.string("requested_by", 100).notNullable();
    t.timestamp("attempted_at", { useTz: true }).notNullable();
    t.timestamp("booked_at", { useTz: true });
    t.timestamp("cancelled_at", { useTz: true });
    t.timestamps(true, true);
    t.check("courier IN ('PostEx', 'Leopards')", [], "shipments_courier_valid");
    t.check("state IN ('booking', 'in-doubt', 'booked', 'refused', 'cancelled')", [], "shipments_state_valid");
    t.check("(state IN ('booked', 'cancelled')) = (tracking_number IS NOT NULL)", [], "shipments_booked_has_number");
  });
  await knex.raw(
    "CREATE UNIQUE INDEX shipments_one_live_per_order ON shipments (order_id) WHERE state IN ('booking', 'in-doubt', 'booked')",
  );
  await knex.raw("CREATE INDEX shipments_order_idx ON shipments (order_id, created_at)");
  await knex.schema.createTable("courier_cities", (t) => {
    t.string("courier", 20).notNullable();
    t.string("name", 100).notNullable();
    t.string("city_id", 20);
    t.timestamp("fetched_at", { useTz: true }).notNullable();
    t.primary(["courier", "name"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("courier_cities");
  await knex.schema.dropTable("shipments");
}
