import type { Knex } from "knex";

/**
 * Reviews from buyers (docs/product.md, "Reviews"):
 * - `reviews`: one per customer and product (the unique index decides two sent at once), from a
 *   Delivered order of the product (`order_id`, and `purchased_at`, the order's date, for the
 *   "month of purchase" that outlives the order); pending until an admin approves or hides it.
 *   The author's name is a copy that outlives the account (the review stays, `user_id` goes).
 * - `review_photos`: up to 3 per review, through the product photos' pipeline (migration 11);
 *   `images` is a copy of the photo's variants, as products keep one, so a list of reviews needs
 *   no join to the variants.
 * - `products.rating_average` and `rating_count`: the approved reviews' figures, kept in the
 *   transaction that approves or hides a review, so cards and lists read them with the product.
 *   A partial index holds the approved ratings for the home page's store-wide figure.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("reviews", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("product_id").notNullable().references("products.id").onDelete("CASCADE");
    t.uuid("user_id").references("users.id").onDelete("SET NULL");
    t.uuid("order_id").references("orders.id").onDelete("SET NULL");
    t.string("author_name", 100).notNullable();
    t.timestamp("purchased_at", { useTz: true }).notNullable();
    t.smallint("rating").notNullable();
    t.string("title", 120).notNullable();
    t.text("body").notNullable();
    t.string("status", 10).notNullable().defaultTo("pending");
    t.string("hidden_reason", 300);
    t.timestamp("published_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["user_id", "product_id"], { indexName: "reviews_one_per_customer_and_product" });
    t.check("rating BETWEEN 1 AND 5", [], "reviews_rating_valid");
    t.check("char_length(body) <= 2000", [], "reviews_body_length");
    t.check("status IN ('pending', 'approved', 'hidden')", [], "reviews_status_valid");
    t.check("(status = 'hidden') = (hidden_reason IS NOT NULL)", [], "reviews_hidden_has_reason");
  });
  // The admin's list: pending first, then newest.
  await knex.raw(`CREATE INDEX reviews_admin_order_idx ON reviews ((status <> 'pending'), created_at DESC, id)`);
  // A product's published reviews, newest first.
  await knex.raw(
    `CREATE INDEX reviews_published_idx ON reviews (product_id, published_at DESC, id) WHERE status = 'approved'`,
  );
  // The store-wide count and average, read from the index alone.
  await knex.raw(`CREATE INDEX reviews_approved_rating_idx ON reviews (rating) WHERE status = 'approved'`);

  await knex.schema.createTable("review_photos", (t) => {
    t.uuid("review_id").notNullable().references("reviews.id").onDelete("CASCADE");
    t.smallint("position").notNullable();
    // RESTRICT: the photo goes only with its review (review-photos.ts deletes both).
    t.uuid("photo_id").notNullable().references("product_photos.id").onDelete("RESTRICT");
    t.jsonb("images").notNullable();
    t.text("placeholder");
    t.primary(["review_id", "position"]);
    t.check("position BETWEEN 0 AND 2", [], "review_photos_at_most_three");
    t.index(["photo_id"], "review_photos_photo_id_idx");
  });

  await knex.schema.alterTable("products", (t) => {
    t.decimal("rating_average", 3, 2);
    t.integer("rating_count").notNullable().defaultTo(0);
    t.check("rating_count >= 0", [], "products_rating_count_not_negative");
    t.check("(rating_count = 0) = (rating_average IS NULL)", [], "products_rating_average_with_count");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("products", (t) => {
    t.dropChecks(["products_rating_count_not_negative", "products_rating_average_with_count"]);
    t.dropColumn("rating_average");
    t.dropColumn("rating_count");
  });
  const photoIds = await knex("review_photos").pluck("photo_id");
  await knex.schema.dropTable("review_photos");
  if (photoIds.length > 0) await knex("product_photos").whereIn("id", photoIds).delete();
  await knex.schema.dropTable("reviews");
}
