import type { Knex } from "knex";

/**
 * Checkout's guards and the cart's notices:
 * - an order may carry the key of the checkout form (or the API's Idempotency-Key) that made it,
 *   unique per customer, so a double submit or a retried request finds the first order instead
 *   of making a second;
 * - a cart keeps the names of products removed from it because they were deleted, so the cart
 *   page can tell the shopper once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.string("idempotency_key", 100);
    t.unique(["user_id", "idempotency_key"], { indexName: "orders_user_idempotency_key_unique" });
  });
  await knex.schema.alterTable("carts", (t) => {
    t.specificType("removed_product_names", "text[]").notNullable().defaultTo("{}");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("carts", (t) => t.dropColumn("removed_product_names"));
  await knex.schema.alterTable("orders", (t) => {
    t.dropUnique(["user_id", "idempotency_key"], "orders_user_idempotency_key_unique");
    t.dropColumn("idempotency_key");
  });
}
