/**
 * The rules of reviews (docs/product.md, "Reviews"), as plain values: the pages' browser bundle
 * uses them too (the form's limits, the admin list's statuses).
 */
export const REVIEW_STATUSES = ["pending", "approved", "hidden"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
export const REVIEW_TITLE_MAX = 120;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_HIDDEN_REASON_MAX = 300;
/** Photos a review may carry, each within the product photos' limits (photo-values.shared.ts). */
export const REVIEW_PHOTOS_MAX = 3;

/** A product's published reviews, this many a page (pages and the API's default). */
export const REVIEWS_PAGE_SIZE = 10;

/** What a signed-in customer who never received the watch is told (403). */
export const NOT_A_BUYER = "Only a customer whose order of this watch was delivered may review it";
/** What a second review of the same watch is told (409). */
export const ALREADY_REVIEWED = "You have already reviewed this watch";

/** "November 2026": the month of purchase a review shows, in Pakistan's time. */
export function purchaseMonth(purchasedAt: string): string {
  return new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "Asia/Karachi" }).format(
    new Date(purchasedAt),
  );
}

/** A rating as the pages say it: "4.5 out of 5" (one decimal at most). */
export function ratingText(rating: number): string {
  return `${Number(rating.toFixed(1))} out of 5`;
}

/** Five stars, the rating's rounded number filled: drawn beside the figure, hidden from screen readers. */
export function starsOf(rating: number): string {
  const filled = Math.min(5, Math.max(0, Math.round(rating)));
  return `${"★".repeat(filled)}${"☆".repeat(5 - filled)}`;
}

/**
 * Where admins see a review's photo file whatever the review's status (pending and hidden
 * reviews' photos are not served at /photos): the same file name under the admins' path.
 */
export const REVIEW_DESK_PHOTOS_PATH = "/admin/reviews/photos";

/** A photo's address (`/photos/<file>`) as the admins' route serves it. */
export function deskPhotoUrl(url: string): string {
  return `${REVIEW_DESK_PHOTOS_PATH}/${url.slice(url.lastIndexOf("/") + 1)}`;
}
