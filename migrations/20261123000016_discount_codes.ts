import type { Knex } from "knex";

/**
 * Discount codes (docs/product.md, "Discount codes"), and on each order the code it used and the
 * amount taken off the goods. A code is never deleted (orders point at it); the order keeps a copy
 * of the code as it was typed, as it keeps its products' names. The database keeps the rules a
 * code must always follow: capitals and digits, 3 to 20 of them; a percentage of 1 to 90; an
 * amount above zero. FIRST10, which the home page advertises, exists in every store: created here
 * when missing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("discount_codes", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("code", 20).notNullable().unique();
    t.string("type", 10).notNullable();
    t.decimal("value", 12, 2).notNullable();
    t.boolean("first_order_only").notNullable().defaultTo(false);
    t.boolean("active").notNullable().defaultTo(true);
    t.timestamp("starts_at", { useTz: true });
    t.timestamp("ends_at", { useTz: true });
    t.integer("max_uses");
    t.timestamps(true, true);
    t.check("code ~ '^[A-Z0-9]{3,20}$'", [], "discount_codes_code_valid");
    t.check("type in ('percent', 'fixed')", [], "discount_codes_type_valid");
    t.check("value > 0 AND (type <> 'percent' OR value BETWEEN 1 AND 90)", [], "discount_codes_value_valid");
    t.check("max_uses IS NULL OR max_uses >= 1", [], "discount_codes_max_uses_valid");
    t.check("starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at", [], "discount_codes_dates_valid");
  });
  await knex.raw("CREATE INDEX discount_codes_created_idx ON discount_codes (created_at DESC, id)");

  await knex.schema.alterTable("orders", (t) => {
    t.uuid("discount_code_id").references("discount_codes.id").onDelete("RESTRICT");
    t.string("discount_code", 20);
    t.decimal("discount_amount", 12, 2).notNullable().defaultTo(0);
    t.check("discount_amount >= 0", [], "orders_discount_not_negative");
    t.check("(discount_code_id IS NULL) = (discount_code IS NULL)", [], "orders_discount_code_copied");
    t.check("discount_code IS NOT NULL OR discount_amount = 0", [], "orders_discount_needs_code");
  });
  // A code's uses are its orders that are not Cancelled, counted under the code's lock at checkout.
  await knex.raw(
    "CREATE INDEX orders_discount_code_idx ON orders (discount_code_id) WHERE discount_code_id IS NOT NULL AND status <> 'Cancelled'",
  );

  await knex.raw(
    `INSERT INTO discount_codes (code, type, value, first_order_only, active)
     VALUES ('FIRST10', 'percent', 10, true, true)
     ON CONFLICT (code) DO NOTHING`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS orders_discount_code_idx");
  await knex.schema.alterTable("orders", (t) => {
    t.dropChecks(["orders_discount_not_negative", "orders_discount_code_copied", "orders_discount_needs_code"]);
    t.dropColumn("discount_amount");
    t.dropColumn("discount_code");
    t.dropColumn("discount_code_id");
  });
  await knex.schema.dropTableIfExists("discount_codes");
}
