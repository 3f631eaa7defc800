import { useEffect, useState } from "react";

/** False in the server's HTML and until the page has hydrated: controls that need JavaScript wait for true. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
