import type { ListFiltersProps } from "./admin-list";

/**
 * A desk list filtered by one status (returns, reviews), 20 a page: the status the address asks
 * for, the filter form that chooses it, and the links to the list's pages that keep it.
 */
export const STATUS_LIST_PAGE_SIZE = 20;

/** The status asked for in the address; an unknown one is forgiven (every row), as the other lists forgive. */
export function statusAsked<Status extends string>(params: URLSearchParams, statuses: readonly Status[]): Status | "" {
  const asked = params.get("status") ?? "";
  return (statuses as readonly string[]).includes(asked) ? (asked as Status) : "";
}

/** The list's filter form: one select of the statuses, "All Statuses" first. */
export function statusFilter<Status extends string>(
  status: Status | "",
  statuses: readonly Status[],
  labelOf: (status: Status) => string = (option) => option,
): ListFiltersProps {
  return {
    fields: [
      {
        kind: "select",
        name: "status",
        label: "Status",
        value: status,
        options: [
          { value: "", label: "All Statuses" },
          ...statuses.map((option) => ({ value: option, label: labelOf(option) })),
        ],
      },
    ],
    submitLabel: "Filter",
  };
}

/** A page of the list at `path`, with its status filter kept. */
export function statusPageLink(path: string, status: string): (page: number) => string {
  return (page) => `${path}?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page) })}`;
}
