import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { OrderItem } from "../orders/order.model";
import { imagesOf, largestImageUrl, type PreparedPhoto } from "./photo-processing";
import { PhotoVariant, ProductPhoto } from "./product-photo.model";
import { Product } from "./product.model";

/**
 * Where photos live: in PostgreSQL, which every app server reaches (no shared disk needed), as
 * one row per photo and one per variant file (docs/decisions/2026-11-23-product-photos.md).
 */

/** Stores a prepared photo and its files; the product's columns that show it come back. */
export async function storePhoto(trx: Knex.Transaction, photo: PreparedPhoto, fallbackImageUrl: string) {
  await ProductPhoto.query(trx).insert({ id: photo.id, width: photo.width, height: photo.height });
  // One statement per file: a 1440-pixel variant is some hundred kB, a dozen of them stay well
  // within what one INSERT should carry.
  for (const variant of photo.variants) {
    await PhotoVariant.query(trx).insert({
      file: variant.file,
      photoId: photo.id,
      width: variant.width,
      height: variant.height,
      type: variant.type,
      size: variant.bytes.length,
      bytes: variant.bytes,
    });
  }
  const images = imagesOf(photo.variants);
  return {
    photoId: photo.id,
    images,
    imagePlaceholder: photo.placeholder,
    imageUrl: largestImageUrl(images),
    fallbackImageUrl,
  };
}

/** A product's columns without a photo: the image is the Image URL given. */
export function withoutPhoto(imageUrl: string) {
  return { photoId: null, images: [], imagePlaceholder: null, imageUrl, fallbackImageUrl: "" };
}

/**
 * Deletes a photo (its files go with it) unless a product still shows it or an order line sold
 * it: order history keeps its image, and nothing else is left behind. Called in the transaction
 * that took the photo off its product, after that change: a checkout copying the photo holds
 * the product's row lock, so its order line is committed (and seen here) before this runs. The
 * foreign keys (RESTRICT) stand behind it.
 */
export async function releasePhoto(trx: Knex.Transaction, photoId: string): Promise<void> {
  await ProductPhoto.query(trx)
    .where("id", photoId)
    .whereNotExists(Product.query(trx).where("photoId", photoId))
    .whereNotExists(OrderItem.query(trx).where("photoId", photoId))
    .delete();
}

/**
 * A variant's bytes and type, by the file name of its address; null when there is none, or when
 * it is a photo of a review that is not published (pending, or hidden by an admin): those are
 * not shown to anyone. `ofReview` says that the photo belongs to a review, whose status may
 * still change.
 */
export async function readPhotoFile(
  db: Database,
  file: string,
): Promise<{ bytes: Buffer; type: string; ofReview: boolean } | null> {
  const variant = await PhotoVariant.query(db)
    .findById(file)
    .select(
      "bytes",
      "type",
      db.raw(
        `(SELECT coalesce(bool_and(reviews.status = 'approved'), true) AS shown
            FROM review_photos JOIN reviews ON reviews.id = review_photos.review_id
           WHERE review_photos.photo_id = photo_variants.photo_id)`,
      ),
      db.raw(
        "EXISTS (SELECT 1 FROM review_photos WHERE review_photos.photo_id = photo_variants.photo_id) AS of_review",
      ),
    );
  if (!variant) return null;
  const row = variant as PhotoVariant & { shown: boolean; ofReview: boolean };
  if (!row.shown) return null;
  return { bytes: row.bytes, type: row.type, ofReview: row.ofReview };
}
