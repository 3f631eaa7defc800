import { requestContext } from "../context";
import type { Route } from "./+types/sitemap";

/** A sitemap file holds at most 50,000 addresses (sitemaps.org); a larger store gets an index. */
export const SITEMAP_FILE_LIMIT = 50_000;

/** The pages of the store that search engines should know, besides each product. */
export const STATIC_SITEMAP_PATHS = [
  "/",
  "/products",
  "/products?category=Men",
  "/products?category=Women",
  "/about",
  "/faq",
  "/contact",
];

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function xmlResponse(body: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

export function urlEntry(loc: string, lastmod?: string): string {
  return `<url><loc>${xmlEscape(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
}

/** /sitemap.xml: every page and product, or an index of product files when there are too many. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, publicUrl } = context.get(requestContext);
  const productCount = await services.catalog.countProducts();
  const staticEntries = STATIC_SITEMAP_PATHS.map((path) => urlEntry(publicUrl + path));
  if (staticEntries.length + productCount <= SITEMAP_FILE_LIMIT) {
    const products = await services.catalog.sitemapEntries(0, productCount);
    const productEntries = products.map((product) =>
      urlEntry(`${publicUrl}/products/${product.id}`, product.updatedAt),
    );
    return xmlResponse(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...staticEntries, ...productEntries].join("")}</urlset>`,
    );
  }
  const files = Math.ceil(productCount / SITEMAP_FILE_LIMIT);
  const sitemaps = [`${publicUrl}/sitemaps/pages.xml`];
  for (let part = 1; part <= files; part++) sitemaps.push(`${publicUrl}/sitemaps/products-${part}.xml`);
  return xmlResponse(
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemaps
      .map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`)
      .join("")}</sitemapindex>`,
  );
}
