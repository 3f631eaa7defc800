/**
 * Days and months as the report tables key them (YYYY-MM-DD in Pakistan), as numbers and runs: shared
 * by the kept tables' statements (report-days.ts) and a period's reading of them (period-rows.ts).
 */
/**
 * A day (YYYY-MM-DD) as a number of days since 1970, and back: the kept and live days of a year
 * and the year before are walked day by day for every table a report reads, and addDays (a
 * date's parse, its check and its text again, about 5 microseconds) made that walk most of a
 * year's payments report's time in the store's process (docs/decisions/2026-11-26-report-speed.md).
 */
const DAY_MS = 86_400_000;
export const dayNumber = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
export const dayText = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);

/** Day numbers (in any order, repeats allowed) as runs of consecutive days, each [first, last]. */
export function runsOfNumbers(numbers: number[]): [string, string][] {
  const runs: [number, number][] = [];
  for (const number of numbers.sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && number === last[1] + 1) last[1] = number;
    else if (!last || number > last[1]) runs.push([number, number]);
  }
  return runs.map(([first, last]) => [dayText(first), dayText(last)]);
}

/** The days (YYYY-MM-DD, in any order) as runs of consecutive days, each [first, last]. */
export function runsOfDays(days: readonly string[]): [string, string][] {
  return runsOfNumbers(days.map(dayNumber));
}

/** The first day of the month after the one starting on `first` (YYYY-MM-01). */
export function nextMonth(first: string): string {
  const [year, month] = first.split("-").map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}
