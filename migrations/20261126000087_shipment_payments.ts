import type { Knex } from "knex";

/**
 * What the courier owes for a delivered cash-on-delivery parcel (server/flows/courier-sync.ts):
 * whether it has paid the amount over (PostEx's `settle`, Leopards' payment status "Paid"), on
 * which date, and its receipt or cheque number; `payment_checked_at` is when it was last asked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("shipments", (t) => {
    t.boolean("paid").notNullable().defaultTo(false);
    t.string("paid_on", 40);
    t.string("payment_receipt", 100);
    t.timestamp("payment_checked_at", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("shipments", (t) => {
    t.dropColumn("paid");
    t.dropColumn("paid_on");
    t.dropColumn("payment_receipt");
    t.dropColumn("payment_checked_at");
  });
}
