import bwipjs from "bwip-js/node";

/**
 * A tracking number as a Code 128 barcode, an SVG drawn on the server by bwip-js (the couriers'
 * scanners read Code 128 from airway bills and slips). The number itself is printed under it by
 * the slip as text, so the barcode carries no text of its own. Null for no number.
 */
export function trackingBarcodeSvg(trackingNumber: string | null): string | null {
  if (!trackingNumber) return null;
  return bwipjs.toSVG({ bcid: "code128", text: trackingNumber, height: 12, scale: 2, paddingwidth: 4 });
}
