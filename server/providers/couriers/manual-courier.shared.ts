import type { CourierProvider } from "./courier-provider.shared";

/**
 * The admin books the parcel with any courier and types its name and tracking number when
 * shipping the order (docs/product.md, "Shipping an order"): exactly these names, and a
 * tracking number of 4 to 40 letters, digits and dashes.
 */
export const manualCourier = {
  id: "manual",
  label: "Typed by the admin",
  courierNames: ["TCS", "Leopards", "M&P", "Trax", "PostEx", "BlueEx", "Call Courier", "Pakistan Post", "Other"],
  trackingNumber: {
    pattern: /^[A-Za-z0-9-]{4,40}$/,
    maxLength: 40,
    message: "Tracking number must be 4 to 40 letters, digits and dashes",
  },
  booking: "typed",
} as const satisfies CourierProvider;
