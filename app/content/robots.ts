import { requestContext } from "../context";
import type { Route } from "./+types/robots";

/** Pages that are a shopper's own or an admin's: no search engine should crawl them. */
export const DISALLOWED_PATHS = [
  "/admin",
  "/cart",
  "/checkout",
  "/order-success",
  "/my-orders",
  "/profile",
  "/login",
  "/signup",
  "/logout",
  "/lite-mode",
  "/api/",
];

export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(requestContext);
  const body = [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
