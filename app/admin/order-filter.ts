import {
  DESK_CONFIRMATION_FILTERS,
  type DeskConfirmationFilter,
} from "../../server/modules/confirmation/order-confirmation.shared";
import {
  DESK_STATUS_FILTERS,
  ORDER_SEARCH_MAX,
  type DeskStatusFilter,
} from "../../server/modules/orders/order-values.shared";
import { searchFromUrl } from "../lib/list-pages";

/**
 * The admin order list's filter as its address writes it (docs/product.md, "Finding and
 * exporting orders"): `status`, `search`, `from`, `to`. The list, its packing slips and its CSV
 * export read the same parameters, so each carries the filter the admin is looking at. An unknown
 * status is forgiven (all orders); dates are checked by the service, which names a bad one.
 */
export type OrderFilter = {
  status: DeskStatusFilter | "";
  search: string;
  from: string;
  to: string;
  confirmation: DeskConfirmationFilter | "";
};

export function orderFilterFromUrl(params: URLSearchParams): OrderFilter {
  const status = params.get("status") ?? "";
  const confirmation = params.get("confirmation") ?? "";
  const day = (name: string) => (params.get(name) ?? "").trim().slice(0, 20);
  return {
    status: (DESK_STATUS_FILTERS as readonly string[]).includes(status) ? (status as DeskStatusFilter) : "",
    search: searchFromUrl(params, ORDER_SEARCH_MAX),
    from: day("from"),
    to: day("to"),
    confirmation: confirmation in DESK_CONFIRMATION_FILTERS ? (confirmation as DeskConfirmationFilter) : "",
  };
}

/** The filter as a query string (empty parts left out), e.g. "status=Pending&from=2026-11-01". */
export function orderFilterQuery(filter: OrderFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(key, value);
  return params.toString();
}

/** Where a path goes with the filter's query string, if any. */
export function withOrderFilter(path: string, filter: OrderFilter, extra: Record<string, string> = {}): string {
  const query = orderFilterQuery(filter, extra);
  return query ? `${path}?${query}` : path;
}
