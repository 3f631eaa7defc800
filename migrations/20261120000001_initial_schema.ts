import type { Knex } from "knex";

/**
 * The whole schema of the store. The database guards its own invariants (unique emails, stock
 * never below zero, value sets, money as numeric) so that no code path can break them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE EXTENSION IF NOT EXISTS pg_trgm");
  await knex.raw("CREATE EXTENSION IF NOT EXISTS citext");

  await knex.schema.createTable("users", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("name", 100).notNullable();
    // citext: one account per address whatever the letter case.
    t.specificType("email", "citext").notNullable().unique();
    t.string("password_hash", 100).notNullable();
    t.string("role", 16).notNullable().defaultTo("customer");
    t.string("phone", 30).notNullable().defaultTo("");
    t.string("street", 200).notNullable().defaultTo("");
    t.string("city", 100).notNullable().defaultTo("");
    t.string("state", 100).notNullable().defaultTo("");
    t.string("zip_code", 20).notNullable().defaultTo("");
    t.string("country", 100).notNullable().defaultTo("Pakistan");
    t.timestamps(true, true);
    t.check("role in ('customer', 'admin')", [], "users_role_valid");
  });
  await knex.raw("CREATE INDEX users_created_at_idx ON users (created_at DESC)");
  await knex.raw("CREATE INDEX users_search_trgm_idx ON users USING gin ((name || ' ' || email::text) gin_trgm_ops)");

  await knex.schema.createTable("api_tokens", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    // Only a SHA-256 of the token is kept: a leaked table does not sign anyone in.
    t.string("token_hash", 64).notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("last_used_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["user_id"]);
  });

  // The table of connect-pg-simple (its own table.sql), plus a user column so that all of a
  // user's sessions can be ended at once (password change, deletion).
  await knex.schema.createTable("sessions", (t) => {
    t.string("sid").primary();
    t.json("sess").notNullable();
    t.timestamp("expire", { precision: 6, useTz: false }).notNullable();
    t.index(["expire"], "sessions_expire_idx");
  });
  await knex.raw("ALTER TABLE sessions ADD COLUMN user_id uuid GENERATED ALWAYS AS (((sess->>'userId'))::uuid) STORED");
  await knex.raw("CREATE INDEX sessions_user_id_idx ON sessions (user_id)");

  await knex.schema.createTable("products", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("name", 200).notNullable();
    t.text("description").notNullable();
    t.decimal("price", 12, 2).notNullable();
    t.string("category", 16).notNullable();
    t.string("image_url", 500).notNullable().defaultTo("");
    t.integer("stock").notNullable().defaultTo(0);
    t.string("brand", 100).notNullable().defaultTo("");
    t.timestamps(true, true);
    t.check("price >= 0", [], "products_price_not_negative");
    t.check("stock >= 0", [], "products_stock_not_negative");
    t.check("category in ('Men', 'Women')", [], "products_category_valid");
  });
  await knex.raw(`
    ALTER TABLE products ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('simple', coalesce(name, '')), 'A') ||
      setweight(to_tsvector('simple', coalesce(brand, '')), 'A') ||
      setweight(to_tsvector('simple', coalesce(description, '')), 'B')
    ) STORED`);
  await knex.raw("CREATE INDEX products_search_vector_idx ON products USING gin (search_vector)");
  await knex.raw(
    "CREATE INDEX products_search_trgm_idx ON products USING gin ((name || ' ' || brand || ' ' || description) gin_trgm_ops)",
  );
  // One index per sort, each led by category so a filtered list is an index scan too; the id
  // breaks ties so that pages never repeat or skip a product.
  for (const [name, column] of [
    ["created_at", "created_at"],
    ["price", "price"],
    ["name", "name"],
  ] as const) {
    await knex.raw(`CREATE INDEX products_${name}_idx ON products (${column}, id)`);
    await knex.raw(`CREATE INDEX products_category_${name}_idx ON products (category, ${column}, id)`);
  }

  await knex.schema.createTable("carts", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().unique().references("users.id").onDelete("CASCADE");
    t.timestamps(true, true);
  });

  await knex.schema.createTable("cart_items", (t) => {
    t.uuid("cart_id").notNullable().references("carts.id").onDelete("CASCADE");
    // A deleted product leaves every cart (the database cascades).
    t.uuid("product_id").notNullable().references("products.id").onDelete("CASCADE");
    t.integer("quantity").notNullable();
    t.timestamps(true, true);
    t.primary(["cart_id", "product_id"]);
    t.check("quantity >= 1", [], "cart_items_quantity_positive");
    t.index(["product_id"]);
  });

  await knex.schema.createTable("orders", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    // The order outlives its customer's account: the name and email are copied in.
    t.uuid("user_id").references("users.id").onDelete("SET NULL");
    t.string("customer_name", 100).notNullable();
    t.string("customer_email", 254).notNullable();
    t.string("street", 200).notNullable();
    t.string("city", 100).notNullable();
    t.string("state", 100).notNullable();
    t.string("zip_code", 20).notNullable();
    t.string("country", 100).notNullable();
    t.decimal("total_price", 12, 2).notNullable();
    t.string("status", 16).notNullable().defaultTo("Pending");
    t.string("payment_method", 32).notNullable().defaultTo("Cash on Delivery");
    t.timestamps(true, true);
    t.check("total_price >= 0", [], "orders_total_not_negative");
    t.check("status in ('Pending', 'Shipped', 'Delivered', 'Cancelled')", [], "orders_status_valid");
    t.check("payment_method = 'Cash on Delivery'", [], "orders_payment_method_valid");
  });
  await knex.raw("CREATE INDEX orders_user_created_idx ON orders (user_id, created_at DESC)");
  await knex.raw("CREATE INDEX orders_created_idx ON orders (created_at DESC, id)");
  await knex.raw("CREATE INDEX orders_status_created_idx ON orders (status, created_at DESC)");

  await knex.schema.createTable("order_items", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("order_id").notNullable().references("orders.id").onDelete("CASCADE");
    // The item keeps what was sold after the product is edited or deleted.
    t.uuid("product_id").references("products.id").onDelete("SET NULL");
    t.string("product_name", 200).notNullable();
    t.string("product_image_url", 500).notNullable().defaultTo("");
    t.integer("quantity").notNullable();
    t.decimal("unit_price", 12, 2).notNullable();
    t.integer("position").notNullable().defaultTo(0);
    t.check("quantity >= 1", [], "order_items_quantity_positive");
    t.check("unit_price >= 0", [], "order_items_price_not_negative");
    t.index(["order_id"]);
    t.index(["product_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["order_items", "orders", "cart_items", "carts", "products", "sessions", "api_tokens", "users"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
