import { trackingPageOf } from "../../server/providers/couriers/courier-tracking.shared";

/**
 * A parcel's tracking number, linked to its courier's tracking page when the courier has one
 * (server/providers/couriers/courier-tracking.shared.ts); the number alone otherwise. The link sends
 * no Referer: the courier need not learn the address of the order's page.
 */
export function TrackingNumber({
  courier,
  trackingNumber,
  strong = false,
}: {
  courier: string | null;
  trackingNumber: string;
  strong?: boolean;
}) {
  const page = trackingPageOf(courier, trackingNumber);
  const number = strong ? (
    <strong className="tracking-number">{trackingNumber}</strong>
  ) : (
    <span className="tracking-number">{trackingNumber}</span>
  );
  if (!page) return number;
  return (
    <a href={page} rel="noreferrer" className="tracking-link">
      {number}
      <span className="visually-hidden">{` (${courier} tracking page)`}</span>
    </a>
  );
}
