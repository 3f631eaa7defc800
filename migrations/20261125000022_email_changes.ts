import type { Knex } from "knex";

/**
 * Email changes waiting for their confirmation (docs/product.md, "Accounts"): the account keeps
 * its address until the link mailed to the new one is used. Only a SHA-256 of the link's token is
 * kept. A change is pending while unused, unexpired and while the user's credentials version is
 * the one it was asked at (a password change or reset ends it); one pending change per user (a
 * new one replaces it). Nothing here reserves the new address: users.email stays the one unique
 * address, checked again when the change is confirmed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("email_changes", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.specificType("new_email", "citext").notNullable();
    t.string("token_hash", 64).notNullable().unique();
    t.integer("credentials_version").notNullable();
    t.string("state", 16).notNullable().defaultTo("pending");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // When it was confirmed, cancelled or replaced by another change.
    t.timestamp("ended_at", { useTz: true });
    t.check("state in ('pending', 'confirmed', 'cancelled', 'replaced')", [], "email_changes_state_valid");
  });
  // At most one pending change per user: the user's pendingEmail is read with a scalar subquery.
  await knex.raw(
    "CREATE UNIQUE INDEX email_changes_one_pending_idx ON email_changes (user_id) WHERE state = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("email_changes");
}
