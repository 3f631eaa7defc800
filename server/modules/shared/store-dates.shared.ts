/**
 * The one way the store writes a moment for people (docs/product.md, "Dates"): "25 Nov 2026, 7:29 pm",
 * in Pakistan's time, on every admin page, packing slip and mail, and on the customer's pages
 * ("25 Nov 2026" where only the day matters). Pure code, for the pages' browser bundle too.
 *
 * The words are put together here from the numbers Intl gives (day, month, hour...), not taken
 * from a locale's own style: "en-PK" writes "25-Nov-2026, 7:29 pm" with one ICU and
 * "25 Nov 2026, 7:29 pm" with another, and the server and the browser must write the same text
 * (or hydration fails).
 */
export const STORE_TIME_ZONE = "Asia/Karachi";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

const WALL_CLOCK = new Intl.DateTimeFormat("en-US", {
  timeZone: STORE_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
});

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

function wallClockOf(moment: string | Date): WallClock {
  const parts = WALL_CLOCK.formatToParts(typeof moment === "string" ? new Date(moment) : moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value);
  return {
    year: part("year"),
    month: part("month"),
    day: part("day"),
    hour: part("hour") % 24,
    minute: part("minute"),
  };
}

/** "25 Nov 2026": the day in Pakistan. */
export function formatStoreDate(moment: string | Date): string {
  const { year, month, day } = wallClockOf(moment);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** "25 Nov 2026, 7:29 pm": the day and the time in Pakistan (12 am is midnight, 12 pm noon). */
export function formatStoreDateTime(moment: string | Date): string {
  const { year, month, day, hour, minute } = wallClockOf(moment);
  const clock = `${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "am" : "pm"}`;
  return `${day} ${MONTHS[month - 1]} ${year}, ${clock}`;
}
