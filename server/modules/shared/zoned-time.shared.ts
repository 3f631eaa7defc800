/**
 * Wall-clock times in a time zone (the store's is Asia/Karachi), for forms that ask for a date and
 * time: `<input type="datetime-local">` gives "2026-12-01T10:00" with no zone. The offset comes
 * from the time zone database through Intl, not a fixed +05:00. Pure code.
 */
const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

export function isZonedLocal(value: string): boolean {
  const match = LOCAL_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  return (
    year! >= 1900 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60
  );
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant a wall-clock time in the zone names ("2026-12-01T10:00" in Karachi → 05:00 UTC). */
export function zonedLocalToDate(value: string, timeZone: string): Date | null {
  if (!isZonedLocal(value)) return null;
  const match = LOCAL_PATTERN.exec(value)!;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  // Twice: the offset at the first guess may differ from the one at the answer (a DST change).
  let instant = wall - offsetMinutes(wall, timeZone) * 60_000;
  instant = wall - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant);
}

/** The wall-clock time in the zone of an instant, as a datetime-local input shows it ("2026-12-01T10:00"). */
export function dateToZonedLocal(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return "";
  const local = new Date(instant + offsetMinutes(instant, timeZone) * 60_000);
  return local.toISOString().slice(0, 16);
}
