import type { Knex } from "knex";

/**
 * The accounts the demo seed made, marked as such (docs/decisions/2026-11-29-demo-passwords.md):
 * the start looks for published demo passwords among them, whatever their email has become,
 * instead of finding the demo accounts by their email. Stores made before this mark the demo
 * addresses and the accounts of the first transaction that made any (the seed makes both demo
 * accounts in one, so they share its `now()`); the start's check clears the mark of those whose
 * password is no demo password, a few bcrypt checks once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE users ADD COLUMN password_from_seed boolean NOT NULL DEFAULT false;
    CREATE INDEX users_password_from_seed_idx ON users (id) WHERE password_from_seed;
    UPDATE users SET password_from_seed = true
     WHERE email IN ('admin@waqt.pk', 'customer@waqt.pk')
        OR created_at = (SELECT min(created_at) FROM users);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE users DROP COLUMN password_from_seed");
}
