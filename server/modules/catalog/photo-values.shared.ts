/**
 * The rules of product photos (docs/product.md, "Products"), as plain values: the pages' browser
 * bundle uses them too (the form's hint, the accepted types, the preview).
 */

/** The form field and the API's multipart field that carries the photo. */
export const PHOTO_FIELD = "image";
/** A photo may weigh 10 MB at most (larger: 413). */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** And hold 40 megapixels at most: a larger one costs too much memory to decode. */
export const PHOTO_MAX_PIXELS = 40_000_000;

/** Site paths of photo variants start with this; the API makes them absolute. */
export const PHOTO_PATH_PREFIX = "/photos/";

/** A photo's formats by name, for messages and the form's hint. */
export function photoFormatsText(formats: readonly string[]): string {
  if (formats.length <= 1) return formats.join("");
  return `${formats.slice(0, -1).join(", ")} or ${formats[formats.length - 1]}`;
}
