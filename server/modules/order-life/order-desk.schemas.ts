import * as yup from "yup";
import { DESK_CONFIRMATION_FILTERS, type DeskConfirmationFilter } from "../confirmation/order-confirmation.shared";
import { blankToUndefined, emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { DESK_STATUS_FILTERS, ORDER_SEARCH_MAX } from "../orders/order-values.shared";
import { isCalendarDay, statusAsText } from "../orders/orders.schemas";

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
