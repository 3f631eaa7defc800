import { describe, expect, it } from "vitest";
import { COURIER_TRACKING_PAGES, trackingPageOf } from "./courier-tracking.shared";
import { COURIER_NAMES } from "./courier-providers.shared";

describe("couriers' tracking pages", () => {
  it("puts the tracking number into the courier's page address", () => {
    expect(trackingPageOf("TCS", "779412345678")).toBe("https://www.tcsexpress.com/track/779412345678");
    expect(trackingPageOf("Trax", "TRX-0042")).toBe("https://sonic.pk/tracking?tracking_number=TRX-0042");
  });

  it("gives no link without a pattern, a courier or a number", () => {
    expect(trackingPageOf("Other", "ABC-1234")).toBeNull();
    expect(trackingPageOf("Leopards", "LE1234567")).toBeNull();
    expect(trackingPageOf(null, "ABC-1234")).toBeNull();
    expect(trackingPageOf("TCS", null)).toBeNull();
  });

  it("lists only couriers the store ships with, each an https address with one place for the number", () => {
    for (const [courier, pattern] of Object.entries(COURIER_TRACKING_PAGES)) {
      expect(COURIER_NAMES as readonly string[]).toContain(courier);
      expect(pattern).toMatch(/^https:\/\/[^/{}]+\/[^{}]*\{number\}[^{}]*$/);
    }
  });
});
