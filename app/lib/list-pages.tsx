import { Link } from "react-router";
import { PAGE_MAX } from "../../server/modules/shared/list-limits.shared";

/** The page asked for in the URL; anything else is page 1 (a page forgives what the API refuses). */
export function pageFromUrl(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1;
}

/**
 * The search term asked for in the URL, trimmed and cut to `max` characters. NUL characters are
 * dropped: PostgreSQL cannot take them, and a page forgives what the API refuses.
 */
export function searchFromUrl(params: URLSearchParams, max: number): string {
  return (params.get("search") ?? "").replace(NUL, "").trim().slice(0, max);
}

// eslint-disable-next-line no-control-regex -- NUL is exactly what is dropped
const NUL = /\u0000/g;

/** Previous / "Page N of M" / Next under the admin tables; `href` keeps the list's filters. */
export function PreviousNextPages({
  page,
  totalPages,
  href,
}: {
  page: number;
  totalPages: number;
  href: (page: number) => string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? <Link to={href(page - 1)}>Previous</Link> : null}
      <span>{`Page ${page} of ${totalPages}`}</span>
      {page < totalPages ? <Link to={href(page + 1)}>Next</Link> : null}
    </nav>
  );
}
