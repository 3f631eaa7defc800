import { STORE_TIME_ZONE } from "../shared/store-dates.shared";

/**
 * The days a report covers (RULINGS.md, fifth wave: days counted in Asia/Karachi, `from` and `to`
 * both included), the presets the pages offer, and the period before it that each report compares
 * with. Dates are calendar days written YYYY-MM-DD; the arithmetic runs on them in UTC, where a
 * day is always 24 hours. Plain code: the pages' forms use it too.
 */

export const REPORT_NAMES = ["sales", "products", "deliveries", "confirmation", "payments", "stock"] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export function isReportName(name: string): name is ReportName {
  return (REPORT_NAMES as readonly string[]).includes(name);
}

/** Both days included. */
export type ReportPeriod = { from: string; to: string };

/** How a report's series groups its days. */
export const GROUPINGS = ["day", "week", "month"] as const;
export type Grouping = (typeof GROUPINGS)[number];

/** A report's list of products is paged: this many rows unless `limit` asks for others. */
export const REPORT_PAGE_SIZE = 50;
/** The most rows a page of a report's list holds (the CSV download has them all). */
export const REPORT_PAGE_SIZE_MAX = 200;

/** A period may span at most this many days: a series of days stays a few hundred points long. */
export const PERIOD_MAX_DAYS = 3 * 366;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day's midnight in UTC, or null for text that is not a real calendar date (2026-02-30). */
export function dateValue(text: string): number | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const value = Date.UTC(year, month - 1, day);
  const back = new Date(value);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return value;
}

function dateText(value: number): string {
  return new Date(value).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateText(dateValue(date)! + days * DAY_MS);
}

/** How many days the period covers, both ends included. */
export function periodDays(period: ReportPeriod): number {
  return Math.round((dateValue(period.to)! - dateValue(period.from)!) / DAY_MS) + 1;
}

/** As many days, ending the day before the period starts. */
export function previousPeriod(period: ReportPeriod): ReportPeriod {
  const days = periodDays(period);
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}

/** Days for a month or two, weeks up to a year, months beyond: a chart of 8 to 70 points. */
export function defaultGrouping(period: ReportPeriod): Grouping {
  const days = periodDays(period);
  if (days <= 62) return "day";
  if (days <= 366) return "week";
  return "month";
}

const STORE_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: STORE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The day it is in Pakistan at `now`. */
export function storeToday(now: Date): string {
  return STORE_DAY.format(now);
}

export const PERIOD_PRESETS = ["7-days", "30-days", "this-month", "last-month"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PRESET_LABELS: Record<PeriodPreset, string> = {
  "7-days": "Last 7 days",
  "30-days": "Last 30 days",
  "this-month": "This month",
  "last-month": "Last month",
};

/** A preset's days, today (in Pakistan) included in the rolling ones and in this month. */
export function presetPeriod(preset: PeriodPreset, now: Date): ReportPeriod {
  const today = storeToday(now);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  switch (preset) {
    case "7-days":
      return { from: addDays(today, -6), to: today };
    case "30-days":
      return { from: addDays(today, -29), to: today };
    case "this-month":
      return { from: firstOfMonth, to: today };
    case "last-month": {
      const lastDay = addDays(firstOfMonth, -1);
      return { from: `${lastDay.slice(0, 8)}01`, to: lastDay };
    }
  }
}

/** The preset a period is, when it is one (the form marks it chosen). */
export function presetOf(period: ReportPeriod, now: Date): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find((preset) => {
      const days = presetPeriod(preset, now);
      return days.from === period.from && days.to === period.to;
    }) ?? null
  );
}
