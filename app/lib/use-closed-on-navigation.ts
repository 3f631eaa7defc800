import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * For a <details> menu or drawer that stays on the page when React Router changes pages:
 * closed when the page changes, as it would be on a new document without JavaScript. Not at
 * hydration: a menu opened before the scripts ran stays open
 * (docs/decisions/2026-11-23-before-hydration.md).
 */
export function useClosedOnNavigation() {
  const details = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current !== key && details.current) details.current.open = false;
    shownKey.current = key;
  }, [key]);
  return details;
}
