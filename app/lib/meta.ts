import type { MetaDescriptor } from "react-router";
import { absoluteSiteUrl } from "../../server/modules/shared/site-url.shared";

export { absoluteSiteUrl };

export type PageMetaInput = {
  title?: string;
  description?: string;
  keywords?: string;
  /** Site path of the page (without the query), made absolute with the public address. */
  path?: string;
  /** Image for social sharing: a site path or an absolute URL. */
  image?: string;
  /** Admin, account and checkout pages are kept out of search engines. */
  noindex?: boolean;
  type?: "website" | "product";
};

export type SiteInfo = { name: string; publicUrl: string; tagline: string };

export const DEFAULT_DESCRIPTION =
  "Premium authentic watches for men and women, with free delivery across Pakistan and cash on delivery.";

/** The title gets the brand suffix when it lacks the brand (docs/product.md, "Page metadata"). */
export function brandTitle(title: string | undefined, brand: string): string {
  if (!title) return `${brand} | Premium Authentic Watches in Pakistan`;
  return title.toLowerCase().includes(brand.toLowerCase()) ? title : `${title} | ${brand}`;
}

/** Title, description, canonical address, social tags and robots, from one description of the page. */
export function pageMeta(site: SiteInfo | undefined, page: PageMetaInput): MetaDescriptor[] {
  const brand = site?.name ?? "Waqt";
  const title = brandTitle(page.title, brand);
  const description = page.description ?? DEFAULT_DESCRIPTION;
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: page.type ?? "website" },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (page.keywords) descriptors.push({ name: "keywords", content: page.keywords });
  if (site && page.path !== undefined) {
    const canonical = absoluteSiteUrl(page.path, site.publicUrl);
    descriptors.push({ tagName: "link", rel: "canonical", href: canonical });
    descriptors.push({ property: "og:url", content: canonical });
  }
  if (site && page.image) {
    const image = absoluteSiteUrl(page.image, site.publicUrl);
    descriptors.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  }
  if (page.noindex) descriptors.push({ name: "robots", content: "noindex, nofollow" });
  return descriptors;
}

type MetaArgs = { matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined> };

/** The site's name and address, from the root loader's data among the matched routes. */
export function siteOf(matches: MetaArgs["matches"]): SiteInfo | undefined {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { site?: SiteInfo } | undefined;
  return root?.site;
}

/** A route's `meta` export for a page whose metadata does not depend on its data. */
export function routeMeta(page: PageMetaInput) {
  return ({ matches }: MetaArgs): MetaDescriptor[] => pageMeta(siteOf(matches), page);
}
