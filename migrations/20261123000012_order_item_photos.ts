import type { Knex } from "knex";

/**
 * Orders keep their photo (docs/product.md, "Orders": an order keeps what it sold). An order line
 * copies the product's photo and its variants' list when it is placed; the reference keeps the
 * photo's bytes from being deleted while any order shows it (RESTRICT), after the product got
 * another photo or was deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_items", (t) => {
    t.uuid("photo_id").references("product_photos.id").onDelete("RESTRICT");
    t.jsonb("product_images").notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.index(["photo_id"], "order_items_photo_id_idx");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_items", (t) => {
    t.dropIndex(["photo_id"], "order_items_photo_id_idx");
    t.dropColumn("photo_id");
    t.dropColumn("product_images");
  });
}
