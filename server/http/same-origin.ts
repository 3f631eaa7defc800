import type { RequestHandler, Response } from "express";

/**
 * Refuses page form posts sent from other sites (cross-site request forgery). Browsers send
 * `Origin` (or at least `Sec-Fetch-Site`) with every POST; a post whose origin is neither this
 * host nor the configured public address is answered 403. SameSite=Lax cookies are the second
 * guard. While developing, localhost and 127.0.0.1 count as the same site.
 */
export function sameOriginPagePosts(options: { publicUrl: string; development: boolean }): RequestHandler {
  const publicOrigin = new URL(options.publicUrl).origin;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    // "null" is what a sandboxed frame or a redirected cross-site post sends; the store's own
    // forms always send their origin. React Router would refuse it too, later, as a 400.
    if (origin === "null") return refuse(res);
    if (origin) {
      if (isAllowedOrigin(origin, req.protocol, req.get("host"), publicOrigin, options.development)) return next();
    } else if (!fetchSite || fetchSite === "same-origin" || fetchSite === "none") {
      // Non-browser clients (and very old browsers) send neither header.
      return next();
    }
    refuse(res);
  };
}

function refuse(res: Response) {
  res.status(403).type("text/plain").send("Cross-site form submissions are not accepted.");
}

function isAllowedOrigin(
  origin: string,
  protocol: string,
  host: string | undefined,
  publicOrigin: string,
  development: boolean,
): boolean {
  if (origin === publicOrigin) return true;
  if (host && origin === `${protocol}://${host}`) return true;
  if (development) {
    try {
      const url = new URL(origin);
      return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    } catch {
      return false;
    }
  }
  return false;
}
