import type { Knex } from "knex";

/**
 * Uploaded product photos (docs/decisions/2026-11-23-product-photos.md). A photo is processed
 * once into variants (WebP, and AVIF where smaller, at several widths) whose bytes live here, so
 * that every app server can answer for every photo without a shared disk. A photo never changes:
 * a new upload is a new photo, so the product keeps a copy of its variants' list (`images`) and
 * of the tiny placeholder for its pages, and `image_url` is the largest variant's address while
 * the photo is there. `fallback_image_url` keeps the Image URL the admin gave, shown again when
 * the photo is removed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("product_photos", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    // The photo as shown: after its EXIF orientation was applied.
    t.integer("width").notNullable();
    t.integer("height").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("photo_variants", (t) => {
    // The file name in the variant's address (/photos/<file>): a hash of the bytes, the width, the type.
    t.string("file", 80).primary();
    t.uuid("photo_id").notNullable().references("product_photos.id").onDelete("CASCADE");
    t.integer("width").notNullable();
    t.integer("height").notNullable();
    t.string("type", 20).notNullable();
    t.integer("size").notNullable();
    t.binary("bytes").notNullable();
    t.index(["photo_id"], "photo_variants_photo_id_idx");
    t.check("type in ('image/webp', 'image/avif')", [], "photo_variants_type_valid");
  });
  await knex.schema.alterTable("products", (t) => {
    // RESTRICT: a photo that a product shows can never be deleted from under it.
    t.uuid("photo_id").references("product_photos.id").onDelete("RESTRICT");
    t.jsonb("images").notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.text("image_placeholder");
    t.string("fallback_image_url", 500).notNullable().defaultTo("");
    t.index(["photo_id"], "products_photo_id_idx");
  });
}

export async function down(knex: Knex): Promise<void> {
  // The photo's address would be left behind as the image: give the product its own URL back.
  await knex.raw("UPDATE products SET image_url = fallback_image_url WHERE photo_id IS NOT NULL");
  await knex.schema.alterTable("products", (t) => {
    t.dropIndex(["photo_id"], "products_photo_id_idx");
    t.dropColumn("photo_id");
    t.dropColumn("images");
    t.dropColumn("image_placeholder");
    t.dropColumn("fallback_image_url");
  });
  await knex.schema.dropTable("photo_variants");
  await knex.schema.dropTable("product_photos");
}
