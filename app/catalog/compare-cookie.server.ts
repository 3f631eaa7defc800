import { createCookie } from "react-router";
import { COMPARE_COOKIE, COMPARE_COOKIE_MAX_AGE_SECONDS } from "../../server/modules/catalog/comparison-values.shared";

/**
 * The compared watches' ids in the shopper's cookie (docs/product.md, "Compare"). React Router's
 * cookie parses and writes it, so the page and the action read it the same way; the ids in it are
 * checked again by the comparison service (anyone can write a cookie). A request carrying it is
 * never answered from the guest page cache, which keeps only pages asked for with no cookie
 * (server/http/page-cache.ts).
 */
const compareCookie = createCookie(COMPARE_COOKIE, {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: COMPARE_COOKIE_MAX_AGE_SECONDS,
});

export async function comparedIdsOf(request: Request): Promise<unknown> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(COMPARE_COOKIE)) return [];
  return (await compareCookie.parse(header)) ?? [];
}

/** The Set-Cookie header for the list after a change; an empty list deletes the cookie. */
export async function comparedIdsCookie(ids: string[], request: Request): Promise<string> {
  const secure = new URL(request.url).protocol === "https:";
  return ids.length === 0
    ? compareCookie.serialize("", { maxAge: 0, expires: new Date(0), secure })
    : compareCookie.serialize(ids, { secure });
}
