import type { Knex } from "knex";

/**
 * Links to reset a forgotten password (docs/product.md, "Accounts"). Only a SHA-256 of the
 * token is kept; a token is single-use, valid for an hour, and only while the user's
 * credentials version is the one it was issued at (a password change or another reset ends it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("password_reset_tokens", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.string("token_hash", 64).notNullable().unique();
    t.integer("credentials_version").notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("password_reset_tokens");
}
