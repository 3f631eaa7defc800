import { DESK_CONFIRMATION_FILTERS, type DeskConfirmationFilter } from "./order-confirmation.shared";
import * as yup from "yup";
import { blankToUndefined, emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { DESK_STATUS_FILTERS, ORDER_SEARCH_MAX, ORDER_STATUSES } from "./order-values.shared";

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

const calendarDay = (label: string) =>
  yup
    .string()
    .transform(blankToUndefined)
    .transform(statusAsText)
    .test(
      "calendar-day",
      `${label} must be a date written YYYY-MM-DD`,
      (value) => value === undefined || isCalendarDay(value),
    );

/**
 * The admin order list, its slips and its export (docs/product.md, "Finding and exporting
 * orders"): a status (or the Pending orders not yet confirmed), a search term, and a range of
 * days in Pakistan's time, both ends included.
 */
export const orderDeskQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(50),
  status: yup
    .string()
    .transform(emptyToUndefined)
    .transform(statusAsText)
    .oneOf([...DESK_STATUS_FILTERS, undefined], `Status must be one of ${DESK_STATUS_FILTERS.join(", ")}`),
  search: yup
    .string()
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError("Search must be text")
    .max(ORDER_SEARCH_MAX, `Search must be at most ${ORDER_SEARCH_MAX} characters`)
    .default(""),
  confirmation: yup
    .string()
    .transform(emptyToUndefined)
    .transform(statusAsText)
    .oneOf(
      [...(Object.keys(DESK_CONFIRMATION_FILTERS) as DeskConfirmationFilter[]), undefined],
      `Confirmation must be one of ${Object.keys(DESK_CONFIRMATION_FILTERS).join(", ")}`,
    ),
  from: calendarDay("From"),
  to: calendarDay("To").test("not-before-from", "To must not be before From", function (value) {
    const from = this.parent.from;
    return value === undefined || typeof from !== "string" || !isCalendarDay(from) || value >= from;
  }),
});
export type OrderDeskQuery = yup.InferType<typeof orderDeskQuerySchema>;
