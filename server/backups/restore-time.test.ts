import { describe, expect, it } from "vitest";
import { parseRestoreTime } from "./restore-time";

describe("the --to time of a restore", () => {
  it("reads ISO 8601 with Z, with an offset, or without one as UTC", () => {
    expect(parseRestoreTime("2026-11-23T10:15:00Z")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
    expect(parseRestoreTime("2026-11-23T15:15:00+05:00")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
    expect(parseRestoreTime("2026-11-23T15:15:00+0500")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
    expect(parseRestoreTime("2026-11-23T05:45-04:30")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
    expect(parseRestoreTime("2026-11-23T10:15:00")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
    expect(parseRestoreTime("2026-11-23 10:15")?.instant.toISOString()).toBe("2026-11-23T10:15:00.000Z");
  });

  it("keeps fractions of a second down to the microsecond for PostgreSQL", () => {
    const time = parseRestoreTime("2026-11-23T15:15:00.123456+05:00")!;
    expect(time.instant.toISOString()).toBe("2026-11-23T10:15:00.123Z");
    expect(time.postgres).toBe("2026-11-23T10:15:00.123456+00");
    expect(parseRestoreTime("2026-11-23T10:15:00.5Z")!.postgres).toBe("2026-11-23T10:15:00.500000+00");
  });

  it("refuses what is not a time", () => {
    for (const text of [
      "",
      "yesterday",
      "2026-11-23",
      "10:15",
      "2026-13-01T00:00Z",
      "2026-02-30T10:00Z",
      "2026-11-23T24:00Z",
      "2026-11-23T10:60Z",
      "2026-11-23T10:15:00+25:00",
      "2026-11-23T10:15:00.1234567Z",
      "1700000000",
    ]) {
      expect(parseRestoreTime(text), text).toBeNull();
    }
  });
});
