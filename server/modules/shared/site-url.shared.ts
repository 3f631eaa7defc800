/**
 * A site path made absolute with the site's public address (canonical links, social images, and
 * the image addresses API clients on other origins need); absolute URLs and empty values stay.
 */
export function absoluteSiteUrl(pathOrUrl: string, publicUrl: string): string {
  if (!pathOrUrl || /^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return publicUrl + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`);
}
