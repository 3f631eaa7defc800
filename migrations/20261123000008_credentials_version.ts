import type { Knex } from "knex";

/**
 * A user's credentials version: bumped by a password change or reset, copied into each session
 * and API token when it signs in, and compared wherever the user is loaded. A session row that
 * a request in flight writes back after the change (the session store saves with an upsert)
 * carries the old version and no longer signs anyone in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.integer("credentials_version").notNullable().defaultTo(1);
  });
  await knex.schema.alterTable("api_tokens", (t) => {
    t.integer("credentials_version").notNullable().defaultTo(1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("api_tokens", (t) => t.dropColumn("credentials_version"));
  await knex.schema.alterTable("users", (t) => t.dropColumn("credentials_version"));
}
