import { data } from "react-router";
import { requestContext } from "../context";
import { SITEMAP_FILE_LIMIT, STATIC_SITEMAP_PATHS, urlEntry, xmlResponse } from "./sitemap";
import type { Route } from "./+types/sitemap-part";

/** The files of a sitemap index: /sitemaps/pages.xml and /sitemaps/products-N.xml. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, publicUrl } = context.get(requestContext);
  const urlset = (entries: string[]) =>
    xmlResponse(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</urlset>`);
  if (params.file === "pages.xml") return urlset(STATIC_SITEMAP_PATHS.map((path) => urlEntry(publicUrl + path)));
  const part = /^products-([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1];
  if (!part) throw data("Not found", { status: 404 });
  const products = await services.catalog.sitemapEntries((Number(part) - 1) * SITEMAP_FILE_LIMIT, SITEMAP_FILE_LIMIT);
  if (products.length === 0) throw data("Not found", { status: 404 });
  return urlset(products.map((product) => urlEntry(`${publicUrl}/products/${product.id}`, product.updatedAt)));
}
