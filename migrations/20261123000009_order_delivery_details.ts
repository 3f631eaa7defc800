import type { Knex } from "knex";

/**
 * What a courier needs to deliver an order (docs/product.md, "Orders" and "Shipping an order"):
 * the receiver's mobile number, and once shipped, the courier and its tracking number. Orders
 * placed before have none (null). The database keeps the stored forms, whatever the code does:
 * the number as +923XXXXXXXXX, one of the couriers' names, a tracking number of 4 to 40 letters,
 * digits and dashes.
 */
const COURIERS = ["TCS", "Leopards", "M&P", "Trax", "PostEx", "BlueEx", "Call Courier", "Pakistan Post", "Other"];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.string("phone", 13);
    t.string("courier", 20);
    t.string("tracking_number", 40);
    t.check("phone ~ '^\\+923[0-9]{9}$'", [], "orders_phone_valid");
    t.check(`courier in (${COURIERS.map((name) => `'${name}'`).join(", ")})`, [], "orders_courier_valid");
    t.check("tracking_number ~ '^[A-Za-z0-9-]{4,40}$'", [], "orders_tracking_number_valid");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks(["orders_phone_valid", "orders_courier_valid", "orders_tracking_number_valid"]);
    t.dropColumn("tracking_number");
    t.dropColumn("courier");
    t.dropColumn("phone");
  });
}
