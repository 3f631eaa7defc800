import { absoluteSiteUrl } from "../modules/shared/site-url.shared";

/**
 * Every `imageUrl`, and every `url` of an `images` list (a photo's variants), in an API answer
 * made absolute: clients run on other origins, where a site path such as /images/x.svg would not
 * load. Applied once, by the router, to every answer, so a new object with an image cannot
 * forget it. The objects given are never changed (a cache may hold them): an object or list with
 * an address to change is copied, and one without is answered as it is — a catalogue page's
 * facets and specifications were copied for nothing, on every answer. An instance of a class (a
 * model) is always copied as a plain object of its own fields, as before. Written as plain loops,
 * as it walks every object of every answer.
 */
export function withAbsoluteImageUrls<T>(value: T, publicUrl: string): T {
  return absoluteIn(value, publicUrl, false) as T;
}

/** `inImages`: the value is an item of an `images` list, whose `url` is an image's address too. */
function absoluteIn(value: unknown, publicUrl: string, inImages: boolean): unknown {
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const made = absoluteIn(value[i], publicUrl, inImages);
      if (made !== value[i]) (items ??= [...value])[i] = made;
    }
    return items ?? value;
  }
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const prototype = Object.getPrototypeOf(value);
  const plain = prototype === Object.prototype || prototype === null;
  let copy: Record<string, unknown> | null = plain ? null : {};
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const inner = (value as Record<string, unknown>)[key];
    let made: unknown = inner;
    if (typeof inner === "string") {
      if (key === "imageUrl" || (inImages && key === "url")) made = absoluteSiteUrl(inner, publicUrl);
    } else if (inner !== null && typeof inner === "object") {
      made = absoluteIn(inner, publicUrl, key === "images" && Array.isArray(inner));
    }
    if (copy) copy[key] = made;
    else if (made !== inner) (copy = { ...(value as Record<string, unknown>) })[key] = made;
  }
  return copy ?? value;
}
