import type { Knex } from "knex";
import { InvalidInputError, TooLargeError } from "../shared/errors.shared";
import type { PhotoLane } from "../catalog/photo-lane";
import {
  inspectPhoto,
  PHOTO_FILE_PATTERN,
  preparePhotos,
  type PhotoUpload,
  type PreparedPhoto,
} from "../catalog/photo-processing";
import { storePhoto } from "../catalog/photo-store";
import { PhotoVariant } from "../catalog/product-photo.model";
import { ReviewPhoto } from "./review.model";
import { PHOTO_FIELD } from "../catalog/photo-values.shared";
import { REVIEW_PHOTOS_MAX } from "./review-values.shared";

/**
 * A review's photos go through the product photos' pipeline (photo-processing.ts): the same
 * limits (10 MB, 40 megapixels, the formats read), the same messages, the same variants, stored
 * in the same tables. They come in the one field `image` (PHOTO_FIELD), as a product's photo
 * does; when there are several, each problem names its photo ("Photo 2: ...").
 */
export async function checkReviewPhotos(photos: PhotoUpload[]): Promise<InvalidInputError | null> {
  if (photos.length > REVIEW_PHOTOS_MAX) {
    return new InvalidInputError([{ field: PHOTO_FIELD, message: `At most ${REVIEW_PHOTOS_MAX} photos` }]);
  }
  const messages: string[] = [];
  let tooLarge = false;
  for (const [index, photo] of photos.entries()) {
    try {
      await inspectPhoto(photo);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      tooLarge ||= error instanceof TooLargeError;
      for (const { message } of error.errors)
        messages.push(photos.length > 1 ? `Photo ${index + 1}: ${message}` : message);
    }
  }
  if (messages.length === 0) return null;
  // One message beside the one field: the form shows a field's first error only.
  const errors = [{ field: PHOTO_FIELD, message: messages.join(" ") }];
  return tooLarge ? new TooLargeError(errors) : new InvalidInputError(errors);
}

/** Each photo decoded once and encoded at every width, one after another, in one turn of the lane. */
export function prepareReviewPhotos(photos: PhotoUpload[], lane: PhotoLane): Promise<PreparedPhoto[]> {
  return preparePhotos(photos, lane);
}

/** Stores the photos and ties them to the review, in the review's transaction. */
export async function storeReviewPhotos(trx: Knex.Transaction, reviewId: string, photos: PreparedPhoto[]) {
  for (const [position, photo] of photos.entries()) {
    const stored = await storePhoto(trx, photo, "");
    await ReviewPhoto.query(trx).insert({
      reviewId,
      position,
      photoId: stored.photoId,
      images: stored.images,
      placeholder: stored.imagePlaceholder,
    });
  }
}

/**
 * A variant of a review's photo whatever the review's status, for the admins moderating it
 * (/admin/reviews/photos/<file>); null for a name that is no review photo's file. /photos serves
 * only a published review's (photo-store.ts).
 */
export async function readReviewPhotoFile(db: Knex, file: string): Promise<{ bytes: Buffer; type: string } | null> {
  if (!PHOTO_FILE_PATTERN.test(file)) return null;
  const variant = await PhotoVariant.query(db)
    .findById(file)
    .whereExists(ReviewPhoto.query(db).whereColumn("review_photos.photoId", "photo_variants.photoId"))
    .select("bytes", "type");
  return variant ? { bytes: variant.bytes, type: variant.type } : null;
}
