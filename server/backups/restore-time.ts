/**
 * The moment `npm run restore -- --to` names: ISO 8601 date and time, with an offset ("Z",
 * "+05:00", "+0500", "+05") or without one, which is read as UTC. Seconds and up to six decimals
 * are optional; "T" or a space separates date and time. PostgreSQL receives the instant in UTC
 * with the same precision (recovery_target_time keeps microseconds).
 */
export type RestoreTime = {
  /** The instant, to the millisecond (for comparing with the backups and the archive). */
  instant: Date;
  /** The same instant as PostgreSQL reads it, microseconds kept. */
  postgres: string;
};

export const RESTORE_TIME_FORM = "an ISO 8601 time such as 2026-11-23T10:15:00Z or 2026-11-23T15:15:00+05:00";

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

export function parseRestoreTime(text: string): RestoreTime | null {
  const match = ISO_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second = "0", fraction = "", , sign, offsetHours, offsetMinutes = "0"] =
    match;
  const numbers = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = numbers;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59) return null;
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  if (Math.abs(offset) > 18 * 60 || Number(offsetMinutes) > 59) return null;

  const micros = fraction.padEnd(6, "0");
  const wallClock = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
  wallClock.setUTCFullYear(y); // Date.UTC alone reads the years 0-99 as 1900-1999
  const utcMs = wallClock.getTime() - offset * 60_000;
  const instant = new Date(utcMs + Math.floor(Number(micros) / 1000));
  const postgres = `${new Date(utcMs).toISOString().slice(0, 19)}.${micros}+00`;
  return { instant, postgres };
}
