import type { Courier } from "./courier-providers.shared";

/**
 * Each courier's public page for one parcel, `{number}` standing for the tracking number
 * (docs/product.md, "Shipping an order"). Only patterns that several independent integrations
 * agree on are listed (docs/decisions/2026-11-25-phone-first.md says which and why); a courier
 * without one shows its tracking number without a link. A new pattern is one line here.
 */
export const COURIER_TRACKING_PAGES: Partial<Record<Courier, string>> = {
  TCS: "https://www.tcsexpress.com/track/{number}",
  Trax: "https://sonic.pk/tracking?tracking_number={number}",
  "Call Courier": "https://callcourier.com.pk/tracking/?tc={number}",
  "Pakistan Post": "https://ep.gov.pk/emtts/EPTrack_Live.aspx?ArticleIDz={number}",
};

/** The courier's page for this parcel, or null when the courier has none (or nothing was shipped). */
export function trackingPageOf(courier: string | null, trackingNumber: string | null): string | null {
  if (!courier || !trackingNumber) return null;
  const pattern = COURIER_TRACKING_PAGES[courier as Courier];
  return pattern ? pattern.replace("{number}", encodeURIComponent(trackingNumber)) : null;
}
