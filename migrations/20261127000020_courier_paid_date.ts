import type { Knex } from "knex";

/**
 * The day a courier paid a delivered parcel's cash over, as a date the couriers page can count by
 * month in Pakistan (server/modules/orders/courier-ledger.ts): `paid_on` keeps the courier's own
 * words, whose format differs by courier (docs/couriers.md, "Payments"). Parcels already paid take
 * the date their words start with, else the Pakistan day the store learned of the payment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("shipments", (t) => {
    t.date("paid_date");
  });
  await knex.raw(`
    UPDATE shipments
       SET paid_date = CASE
             WHEN paid_on ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])' THEN substring(paid_on, 1, 10)::date
             ELSE (COALESCE(payment_checked_at, updated_at) AT TIME ZONE 'Asia/Karachi')::date
           END
     WHERE paid`);
  await knex.raw(
    "ALTER TABLE shipments ADD CONSTRAINT shipments_paid_has_date CHECK (NOT paid OR paid_date IS NOT NULL)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("shipments", (t) => {
    t.dropChecks(["shipments_paid_has_date"]);
    t.dropColumn("paid_date");
  });
}
