/**
 * A product's photo as every module carries it (docs/product.md, "Products"): the catalogue makes
 * the variants, carts show them, and orders keep a copy of those sold. Plain values: the pages'
 * browser bundle uses them too.
 */

/** The image types a variant may have; `images` lists WebP at every width, then AVIF at the widths where it was smaller. */
export const PHOTO_VARIANT_TYPES = ["image/webp", "image/avif"] as const;
export type PhotoVariantType = (typeof PHOTO_VARIANT_TYPES)[number];

/** A variant of a product's photo, as products carry it (`images`). */
export type ProductImage = { url: string; width: number; height: number; type: PhotoVariantType };
