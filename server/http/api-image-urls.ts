import { absoluteSiteUrl } from "../modules/shared/site-url.shared";

/**
 * Every `imageUrl`, and every `url` of an `images` list (a photo's variants), in an API answer
 * made absolute: clients run on other origins, where a site path such as /images/x.svg would not
 * load. Applied once, by the router, to every answer, so a new object with an image cannot
 * forget it.
 */
export function withAbsoluteImageUrls<T>(value: T, publicUrl: string): T {
  if (Array.isArray(value)) return value.map((item) => withAbsoluteImageUrls(item, publicUrl)) as T;
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "imageUrl" && typeof inner === "string"
        ? absoluteSiteUrl(inner, publicUrl)
        : key === "images" && Array.isArray(inner)
          ? inner.map((image) => withAbsoluteImageUrls(withAbsoluteUrl(image, publicUrl), publicUrl))
          : withAbsoluteImageUrls(inner, publicUrl),
    ]),
  ) as T;
}

function withAbsoluteUrl(image: unknown, publicUrl: string): unknown {
  if (image === null || typeof image !== "object" || Array.isArray(image)) return image;
  const { url } = image as { url?: unknown };
  return typeof url === "string" ? { ...image, url: absoluteSiteUrl(url, publicUrl) } : image;
}
