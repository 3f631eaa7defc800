import type { Knex } from "knex";

/**
 * The customer's optional screenshot of a bank transfer (docs/decisions/2026-11-26-advance-payment.md,
 * "The screenshot's privacy"): it shows their bank, account and balance, so it lives in a table of
 * its own, never with the public product photos (product_photos, served by /photos to anyone).
 * One per order (the order's id is the key: a new one replaces the old row and its bytes), and
 * gone with its order (CASCADE). `image` is the pipeline's re-encoded WebP (no metadata),
 * `thumbnail` the small one the admin's order page shows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("payment_screenshots", (t) => {
    t.uuid("order_id").primary().references("orders.id").onDelete("CASCADE");
    t.binary("image").notNullable();
    t.integer("width").notNullable();
    t.integer("height").notNullable();
    t.binary("thumbnail").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("payment_screenshots");
}
