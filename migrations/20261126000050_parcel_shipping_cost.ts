import type { Knex } from "knex";

/**
 * What a parcel costs the store to send one way, on average (docs/product.md, "Reports"): the
 * deliveries report prices each return to sender at twice this (out and back). It sits in the
 * row of the merchant's order rules (migration 20261126000036) as the admin sets it on the same
 * page. NULL until the merchant sets it: the report then says so instead of guessing a figure.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_rules", (t) => {
    t.decimal("parcel_shipping_cost", 12, 2);
    t.check("parcel_shipping_cost >= 0", [], "order_rules_parcel_shipping_cost_not_negative");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_rules", (t) => {
    t.dropChecks(["order_rules_parcel_shipping_cost_not_negative"]);
    t.dropColumn("parcel_shipping_cost");
  });
}
