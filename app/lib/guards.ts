import { redirect, type RouterContextProvider } from "react-router";
import type { PublicUser } from "../../server/modules/accounts/user.model";
import { requestContext } from "../context";

/**
 * The page guards, one place for each kind: a guest is sent to log in and comes back; a
 * signed-in non-admin on an admin page is sent home. Thrown redirects end the loader or action.
 */
export function requireUser(context: Readonly<RouterContextProvider>, request: Request): PublicUser {
  const { user } = context.get(requestContext);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

export function requireAdmin(context: Readonly<RouterContextProvider>, request: Request): PublicUser {
  const user = requireUser(context, request);
  if (user.role !== "admin") throw redirect("/");
  return user;
}

/**
 * `reason` of the log-in page's address when a guest pressed Add to Cart: the page says why
 * they must log in, and offers to sign up on the way back to the watch.
 */
export const LOGIN_REASON_CART = "cart";

/** Log-in and sign-up are for guests: a signed-in user goes home. */
export function redirectSignedInUser(context: Readonly<RouterContextProvider>) {
  if (context.get(requestContext).user) throw redirect("/");
}

/**
 * Where to go after logging in: only a path on this site (no "//evil.example", no scheme,
 * no backslash tricks), else the home page.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://same.site");
    if (url.origin !== "http://same.site") return fallback;
    const path = url.pathname + url.search + url.hash;
    // Dot segments can leave a path that starts with "//" ("/.//evil.example" → "//evil.example"),
    // which a browser reads as another host: an open redirect (tests/integration/security).
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}
