import { absoluteSiteUrl } from "../modules/shared/site-url.shared";

/**
 * Every `imageUrl`, and every `url` of an `images` list (a photo's variants), in an API answer
 * made absolute: clients run on other origins, where a site path such as /images/x.svg would not
 * load. Applied once, by the router, to every answer, so a new object with an image cannot
 * forget it. A copy: the answer's objects may be kept elsewhere (a cache) and are not changed.
 * Written as plain loops, as it walks every object of every answer.
 */
export function withAbsoluteImageUrls<T>(value: T, publicUrl: string): T {
  return absoluteIn(value, publicUrl, false) as T;
}

/** `inImages`: the value is an item of an `images` list, whose `url` is an image's address too. */
function absoluteIn(value: unknown, publicUrl: string, inImages: boolean): unknown {
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = absoluteIn(value[i], publicUrl, inImages);
    return items;
  }
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner === "string") {
      copy[key] = key === "imageUrl" || (inImages && key === "url") ? absoluteSiteUrl(inner, publicUrl) : inner;
    } else if (inner === null || typeof inner !== "object") {
      copy[key] = inner;
    } else {
      copy[key] = absoluteIn(inner, publicUrl, key === "images" && Array.isArray(inner));
    }
  }
  return copy;
}
