import type { Knex } from "knex";

/**
 * The merchant's cash-on-delivery rules (docs/product.md, "Cash-on-delivery rules"), stored in the
 * database so an admin changes them without a restart:
 * - `order_rules`: one row; each rule a number, NULL when it is off. Defaults: a phone is blocked
 *   at 2 returns to sender, a first-time phone orders at most Rs. 50,000 on cash on delivery,
 *   anyone may (no limit), at most 2 open cash-on-delivery orders per phone.
 * - `order_blocklist`: phones (stored +923…) and emails (lower case) refused cash on delivery,
 *   each with a note, who added it (the name outlives the account) and when.
 * - `cod_refusals`: every checkout a rule refused, with its code and rule, for the admin's page.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("order_rules", (t) => {
    t.smallint("id").primary().defaultTo(1);
    t.integer("block_after_returns");
    t.decimal("first_time_cod_limit", 12, 2);
    t.decimal("cod_limit", 12, 2);
    t.integer("open_cod_orders");
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string("updated_by_name", 100);
    t.check("id = 1", [], "order_rules_one_row");
    t.check("block_after_returns >= 1", [], "order_rules_block_after_returns_positive");
    t.check("first_time_cod_limit > 0", [], "order_rules_first_time_cod_limit_positive");
    t.check("cod_limit > 0", [], "order_rules_cod_limit_positive");
    t.check("open_cod_orders >= 1", [], "order_rules_open_cod_orders_positive");
  });
  await knex("order_rules").insert({
    id: 1,
    block_after_returns: 2,
    first_time_cod_limit: 50000,
    cod_limit: null,
    open_cod_orders: 2,
  });

  await knex.schema.createTable("order_blocklist", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("kind", 8).notNullable();
    t.string("value", 254).notNullable();
    t.string("note", 200).notNullable().defaultTo("");
    t.uuid("added_by").references("users.id").onDelete("SET NULL");
    t.string("added_by_name", 100).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["kind", "value"]);
    t.check("kind IN ('phone', 'email')", [], "order_blocklist_kind_valid");
  });

  await knex.schema.createTable("cod_refusals", (t) => {
    t.bigIncrements("id").primary();
    t.string("code", 20).notNullable();
    t.string("rule", 40).notNullable();
    t.string("message", 300).notNullable();
    t.string("phone", 13);
    t.string("email", 254).notNullable();
    t.uuid("user_id").references("users.id").onDelete("SET NULL");
    t.decimal("amount", 12, 2).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("code IN ('COD_BLOCKED', 'COD_LIMIT', 'COD_OPEN_ORDERS')", [], "cod_refusals_code_valid");
    t.index(["created_at"], "cod_refusals_created_at_idx");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("cod_refusals");
  await knex.schema.dropTable("order_blocklist");
  await knex.schema.dropTable("order_rules");
}
