import { describe, expect, it } from "vitest";
import { dateToZonedLocal, isZonedLocal, zonedLocalToDate } from "./zoned-time.shared";

describe("wall-clock times in a time zone", () => {
  it("reads a datetime-local value in Karachi (UTC+5) as the instant it names, and back", () => {
    expect(zonedLocalToDate("2026-12-01T10:00", "Asia/Karachi")!.toISOString()).toBe("2026-12-01T05:00:00.000Z");
    expect(zonedLocalToDate("2026-01-01T00:30:15", "Asia/Karachi")!.toISOString()).toBe("2025-12-31T19:30:15.000Z");
    expect(dateToZonedLocal("2026-12-01T05:00:00.000Z", "Asia/Karachi")).toBe("2026-12-01T10:00");
    expect(dateToZonedLocal(null, "Asia/Karachi")).toBe("");
  });

  it("follows a zone's daylight saving time from the time zone database", () => {
    // London: GMT in January, BST (UTC+1) in July.
    expect(zonedLocalToDate("2026-01-15T12:00", "Europe/London")!.toISOString()).toBe("2026-01-15T12:00:00.000Z");
    expect(zonedLocalToDate("2026-07-15T12:00", "Europe/London")!.toISOString()).toBe("2026-07-15T11:00:00.000Z");
    expect(dateToZonedLocal("2026-07-15T11:00:00.000Z", "Europe/London")).toBe("2026-07-15T12:00");
  });

  it("refuses what is not a date and time", () => {
    for (const value of [
      "",
      "2026-12-01",
      "2026-13-01T10:00",
      "2026-02-30T10:00",
      "2026-12-01T24:00",
      "1800-01-01T00:00",
      "soon",
    ]) {
      expect(isZonedLocal(value), value).toBe(false);
      expect(zonedLocalToDate(value, "Asia/Karachi"), value).toBeNull();
    }
    expect(isZonedLocal("2026-12-01T23:59")).toBe(true);
  });
});
