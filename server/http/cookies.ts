import { parse } from "cookie";

/**
 * The request's cookies as the session middleware reads them: the same parser (express-session
 * uses this `cookie` package), so that what one part of the server decides from a Cookie header
 * the others decide too. Never a regular expression of our own over the header.
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  if (!header) return {};
  return parse(header);
}
