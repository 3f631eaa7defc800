import type { Knex } from "knex";

/**
 * Messages sent through the contact page. The spec's client dropped them; the store keeps them
 * for the administrators (/admin/messages). A sender who is signed in is remembered, and the
 * message stays when that account is deleted (the sender's name and email are copied in).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("contact_messages", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").references("users.id").onDelete("SET NULL");
    t.string("name", 100).notNullable();
    t.string("email", 254).notNullable();
    t.string("subject", 200).notNullable();
    t.text("message").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["created_at"], "contact_messages_created_at_index");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("contact_messages");
}
