import type { ParcelEvent, ParcelStage } from "./courier-provider.shared";

/**
 * What both couriers' clients share: one HTTP call with a timeout, and the two ways it can fail.
 * A courier that answers "no" (CourierRefused) certainly did nothing; one that does not answer,
 * answers 5xx or answers something unreadable (CourierUnreachable) may have done it anyway, which
 * is why a booking whose call failed so is "in doubt" (docs/decisions/2026-11-26-courier-booking.md).
 */
export class CourierRefused extends Error {
  constructor(
    readonly courier: string,
    message: string,
  ) {
    super(message);
    this.name = "CourierRefused";
  }
}

export class CourierUnreachable extends Error {
  constructor(
    readonly courier: string,
    message: string,
  ) {
    super(message);
    this.name = "CourierUnreachable";
  }
}

/** How long a courier has to answer one call before the store stops waiting. */
export const COURIER_TIMEOUT_MS = 15_000;

export type CourierAnswer = { status: number; contentType: string; body: Buffer };

/** One call; a timeout, a lost connection or a 5xx throws CourierUnreachable. */
export async function courierCall(
  courier: string,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<CourierAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new CourierUnreachable(
      courier,
      timedOut
        ? `${courier} did not answer within ${Math.round(timeoutMs / 1000)} s`
        : `${courier} could not be reached`,
    );
  }
  let body: Buffer;
  try {
    body = Buffer.from(await response.arrayBuffer());
  } catch {
    throw new CourierUnreachable(courier, `${courier} did not finish its answer`);
  }
  if (response.status >= 500) {
    throw new CourierUnreachable(courier, `${courier} is not answering (HTTP ${response.status})`);
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", body };
}

/** The answer's JSON body; anything else is CourierUnreachable (a proxy's page, a cut answer). */
export function jsonOf(courier: string, answer: CourierAnswer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(answer.body.toString("utf8"));
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: not JSON
  }
  throw new CourierUnreachable(courier, `${courier} gave an answer the store cannot read (HTTP ${answer.status})`);
}

/** A flag that arrives as true/false, "true"/"false", 1/0 or "1"/"0" (docs/couriers.md). */
export function isTrue(value: unknown): boolean {
  return (
    value === true || value === 1 || value === "1" || (typeof value === "string" && value.toLowerCase() === "true")
  );
}

/** A text field, numbers included (codes arrive as both); empty: null. */
export function textOf(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return null;
}

/**
 * A courier's time as an ISO instant. Pakistan's couriers write local time (UTC+5) when they give
 * no offset: "2026-01-27T17:31:55.000+0500", "2025-11-10 20:52:00", "10/11/2025" with a separate
 * "20:52"; dates are day first. Null when unreadable.
 */
export function courierTime(date: string | null, time?: string | null): string | null {
  if (!date) return null;
  const text = time ? `${date} ${time}` : date;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    text.trim(),
  );
  const dayFirst = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  let parts: [string, string, string, string, string, string, string];
  if (iso) {
    const offset = iso[7] ? (iso[7] === "Z" ? "Z" : iso[7].replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2")) : "+05:00";
    parts = [iso[1]!, iso[2]!, iso[3]!, iso[4] ?? "00", iso[5] ?? "00", iso[6] ?? "00", offset];
  } else if (dayFirst) {
    const year = dayFirst[3]!.length === 2 ? `20${dayFirst[3]}` : dayFirst[3]!;
    parts = [
      year,
      dayFirst[2]!.padStart(2, "0"),
      dayFirst[1]!.padStart(2, "0"),
      (dayFirst[4] ?? "00").padStart(2, "0"),
      dayFirst[5] ?? "00",
      dayFirst[6] ?? "00",
      "+05:00",
    ];
  } else {
    return null;
  }
  const [year, month, day, hour, minute, second, offset] = parts;
  const instant = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

/** A day in Pakistan (UTC+5) as yyyy-mm-dd, how both APIs take dates. */
export function pakistanDay(at: Date): string {
  return new Date(at.getTime() + 5 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Oldest first: by time when every event has one, else reversed when the list reads newest-first. */
export function inTimeOrder(events: ParcelEvent[]): ParcelEvent[] {
  if (events.every((event) => event.at !== null)) {
    return events
      .map((event, index) => ({ event, index }))
      .sort((a, b) => a.event.at!.localeCompare(b.event.at!) || a.index - b.index)
      .map(({ event }) => event);
  }
  const rank = (event: ParcelEvent | undefined) => (event?.stage ? STAGE_RANK[event.stage] : -1);
  return rank(events[0]) > rank(events.at(-1)) ? [...events].reverse() : events;
}

const STAGE_RANK: Record<ParcelStage, number> = {
  booked: 0,
  "picked-up": 1,
  "in-transit": 2,
  "out-for-delivery": 3,
  attempted: 4,
  delivered: 5,
  returned: 5,
  cancelled: 5,
};
