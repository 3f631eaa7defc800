/**
 * A brand's slug, the address of its page (/brands/{slug}) and what makes two brand texts one
 * brand: ASCII letters and digits, lowered, runs of anything else one hyphen ("TAG Heuer" and
 * "Tag-Heuer" are "tag-heuer"). null for a text with no such letter or digit (no brand page).
 * Migration 20261126000032's brand_slug() is its SQL twin, for the trigger that links products
 * to brands; tests/integration/brands.test.ts checks that the two agree.
 */
export function brandSlug(brand: string): string | null {
  const slug = brand
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase()
    .replace(/^-+|-+$/g, "");
  return slug === "" ? null : slug;
}

/**
 * True for an address that brandSlug could have made: anything else names no brand (and is never
 * sent to the database, which refuses some bytes, such as NUL, with an error of its own).
 */
export function isBrandSlug(slug: string): boolean {
  return brandSlug(slug) === slug;
}

export const BRAND_DESCRIPTION_MAX_LENGTH = 2000;
