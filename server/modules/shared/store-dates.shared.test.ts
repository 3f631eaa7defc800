import { describe, expect, it } from "vitest";
import { formatStoreDate, formatStoreDateTime } from "./store-dates.shared";

describe("the store's dates", () => {
  it('writes a moment as "25 Nov 2026, 7:29 pm" in Pakistan time (UTC+5)', () => {
    expect(formatStoreDateTime("2026-11-25T14:29:00.000Z")).toBe("25 Nov 2026, 7:29 pm");
    expect(formatStoreDateTime(new Date("2026-11-25T14:29:59.999Z"))).toBe("25 Nov 2026, 7:29 pm");
    expect(formatStoreDateTime("2026-03-01T04:05:00.000Z")).toBe("1 Mar 2026, 9:05 am");
  });

  it("counts the day and the hours in Karachi, midnight as 12 am and noon as 12 pm", () => {
    // 19:30 UTC on the 31st is half past midnight on the 1st in Karachi.
    expect(formatStoreDateTime("2025-12-31T19:30:00.000Z")).toBe("1 Jan 2026, 12:30 am");
    expect(formatStoreDate("2025-12-31T19:30:00.000Z")).toBe("1 Jan 2026");
    expect(formatStoreDateTime("2026-06-15T07:00:00.000Z")).toBe("15 Jun 2026, 12:00 pm");
    expect(formatStoreDateTime("2026-06-15T18:59:00.000Z")).toBe("15 Jun 2026, 11:59 pm");
  });
});
