import type { Knex } from "knex";

/**
 * Returns of delivered orders (docs/product.md, "Returns"): what comes back, why, the refund it
 * earns, and where it stands. Each line copies the order line it returns (product, name, unit
 * price), as orders copy what they sold. An order has at most one open return (Requested or
 * Approved) at a time, which the database keeps too.
 */
const REASONS = ["Changed my mind", "Damaged or defective", "Not as described", "Wrong item", "Other"];
const STATUSES = ["Requested", "Approved", "Rejected", "Received"];
const METHODS = ["Cash", "Bank transfer", "JazzCash", "Easypaisa"];
const list = (values: string[]) => values.map((value) => `'${value}'`).join(", ");

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("order_returns", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("order_id").notNullable().references("orders.id").onDelete("CASCADE");
    t.string("reason", 40).notNullable();
    t.string("note", 500);
    t.string("status", 16).notNullable().defaultTo("Requested");
    t.string("rejection_reason", 500);
    t.decimal("refund_amount", 12, 2).notNullable();
    t.string("refund_method", 20);
    t.string("refund_reference", 100);
    t.timestamps(true, true);
    t.check(`reason in (${list(REASONS)})`, [], "order_returns_reason_valid");
    t.check(`status in (${list(STATUSES)})`, [], "order_returns_status_valid");
    t.check(`refund_method in (${list(METHODS)})`, [], "order_returns_refund_method_valid");
    t.check("refund_amount >= 0", [], "order_returns_refund_not_negative");
    t.check("status <> 'Rejected' OR rejection_reason IS NOT NULL", [], "order_returns_rejection_has_reason");
    t.check("status <> 'Received' OR refund_method IS NOT NULL", [], "order_returns_received_has_refund");
  });
  await knex.raw(
    "CREATE UNIQUE INDEX order_returns_one_open_idx ON order_returns (order_id) WHERE status IN ('Requested', 'Approved')",
  );
  await knex.raw("CREATE INDEX order_returns_order_idx ON order_returns (order_id)");
  await knex.raw("CREATE INDEX order_returns_created_idx ON order_returns (created_at DESC, id)");
  await knex.raw("CREATE INDEX order_returns_status_created_idx ON order_returns (status, created_at DESC, id)");

  await knex.schema.createTable("order_return_items", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("return_id").notNullable().references("order_returns.id").onDelete("CASCADE");
    t.uuid("order_item_id").notNullable().references("order_items.id").onDelete("CASCADE");
    // Null once the product was deleted; the copy stays (and no stock comes back for it).
    t.uuid("product_id").references("products.id").onDelete("SET NULL");
    t.string("product_name", 200).notNullable();
    t.integer("quantity").notNullable();
    t.decimal("unit_price", 12, 2).notNullable();
    t.integer("position").notNullable().defaultTo(0);
    t.check("quantity >= 1", [], "order_return_items_quantity_positive");
    t.check("unit_price >= 0", [], "order_return_items_price_not_negative");
    t.index(["return_id"]);
    t.index(["order_item_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("order_return_items");
  await knex.schema.dropTableIfExists("order_returns");
}
