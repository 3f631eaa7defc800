import * as yup from "yup";
import { emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { ORDER_STATUSES } from "./order-values.shared";

export const STATUS_MESSAGE = `Status must be one of ${ORDER_STATUSES.join(", ")}`;

// A status that is not text (a JSON object, or ?status= given twice) is made text, so that it
// fails oneOf with the same message as an unknown status, instead of yup's "must be a `string` type".
export const statusAsText = (value: unknown) => (value == null || typeof value === "string" ? value : String(value));

export const orderListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(1000),
  status: yup
    .string()
    .transform(emptyToUndefined)
    .transform(statusAsText)
    .oneOf([...ORDER_STATUSES, undefined], STATUS_MESSAGE),
});

/** A calendar day written YYYY-MM-DD (years 1900 to 9999). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
