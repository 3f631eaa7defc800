import { PHOTO_VARIANT_TYPES } from "./product-images.shared";
import { arrayOf, described, integer, object, oneOf, text } from "./shapes";

/**
 * The variants of an uploaded photo, narrowest first: WebP at every width, then AVIF at the
 * widths where it was smaller; empty for a product shown by its Image URL alone. Products, cart
 * lines and orders carry the same list.
 */
export const productImagesShape = described(
  arrayOf(
    object({
      url: text({ description: "Absolute in API answers; the file never changes (cache it for a year)" }),
      width: integer({ minimum: 1 }),
      height: integer({ minimum: 1 }),
      type: oneOf(PHOTO_VARIANT_TYPES),
    }),
  ),
  "The uploaded photo at several widths (never wider than the photo), for srcset: WebP at each width, AVIF at the widths where it is smaller; [] when the product has only an image URL",
);
