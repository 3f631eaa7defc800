/**
 * The store's links whose address carries a secret, as route patterns in React Router's syntax
 * (app/routes.ts): the password reset, the stock-alert unsubscribe and the new email's confirmation
 * carry their token in the query (`?token=`), the order confirmation in the path (`/c/{token}`, RULINGS.md). Whoever reads
 * a log must not be able to use them, so logs keep only the pattern. A new link with a token is
 * covered by adding its route here.
 */
export const TOKEN_LINK_ROUTES = ["/reset-password", "/unsubscribe", "/confirm-email", "/c/:token"] as const;

/**
 * A query parameter that carries a token wherever it appears (a link missing from the list
 * above), and the WhatsApp webhook's verification token (GET /webhooks/whatsapp?hub.verify_token=…).
 */
const TOKEN_PARAMETER = /^(token|hub\.verify_token)$/i;

/**
 * A request's URL as a log may keep it: for a token link, its route pattern without the query
 * (`/reset-password`, `/c/:token`, with `.data` for React Router's data request); elsewhere the
 * URL as it came, but for the value of any `token` parameter. The path is matched as React Router
 * matches it (decoded, any letter case, a trailing slash or doubled slashes ignored), so no
 * spelling of a link escapes.
 */
export function loggableUrl(originalUrl: string): string {
  const queryAt = originalUrl.indexOf("?");
  const rawPath = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
  const path = decoded(rawPath)
    .toLowerCase()
    .replace(/\/{2,}/g, "/");
  const data = /\.data\/?$/.test(path);
  const segments = path
    .replace(/\.data\/?$/, "")
    .split("/")
    .filter(Boolean);
  for (const route of TOKEN_LINK_ROUTES) {
    const parts = route.split("/").filter(Boolean);
    const matches =
      parts.length === segments.length && parts.every((part, i) => part.startsWith(":") || part === segments[i]);
    if (matches) return `${route}${data ? ".data" : ""}`;
  }
  if (queryAt === -1) return originalUrl;
  const query = new URLSearchParams(originalUrl.slice(queryAt + 1));
  if (![...query.keys()].some((name) => TOKEN_PARAMETER.test(name))) return originalUrl;
  for (const name of new Set(query.keys())) if (TOKEN_PARAMETER.test(name)) query.set(name, "[removed]");
  return `${rawPath}?${query.toString()}`;
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
