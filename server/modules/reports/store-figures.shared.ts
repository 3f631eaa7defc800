/**
 * The home page's figures, from the store's own data (docs/product.md, "Home page figures";
 * RULINGS.md: "4.9/5", "500+" and "1000+" were marketing copy). Plain values and functions: the
 * page renders them.
 */

/** What the store counts for the figures. */
export type StoreCounts = { products: number; customers: number; reviews: number; averageRating: number | null };

/** The rating is shown only from this many approved reviews. */
export const RATING_SHOWN_FROM_REVIEWS = 10;

/**
 * A count rounded down, never above what there is: under 10 exactly ("7"); then to the tens
 * ("40+"), from 100 to the hundreds ("500+" only from 500), from 1,000 to the thousands ("12,000+").
 */
export function roundedDown(count: number): string {
  if (count < 10) return String(count);
  const step = count < 100 ? 10 : count < 1000 ? 100 : 1000;
  return `${(Math.floor(count / step) * step).toLocaleString("en-US")}+`;
}

/** An average cut (not rounded) to one decimal: 4.96 is "4.9", never "5.0". */
export function ratingCutToOneDecimal(average: number): string {
  return (Math.floor(average * 10 + 1e-9) / 10).toFixed(1);
}

/** The figures the home page shows: only those the store's data bears out. */
export function storeFigures(counts: StoreCounts): { value: string; label: string }[] {
  const figures: { value: string; label: string }[] = [];
  if (counts.products > 0) figures.push({ value: roundedDown(counts.products), label: "Watches" });
  if (counts.customers > 0) figures.push({ value: roundedDown(counts.customers), label: "Customers" });
  figures.push({ value: "100%", label: "Authentic" });
  if (counts.reviews >= RATING_SHOWN_FROM_REVIEWS && counts.averageRating !== null) {
    figures.push({
      value: `${ratingCutToOneDecimal(counts.averageRating)}/5`,
      label: `Rating from ${roundedDown(counts.reviews)} reviews`,
    });
  }
  return figures;
}
