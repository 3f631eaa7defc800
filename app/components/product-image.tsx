import { useRouteLoaderData } from "react-router";
import type { ProductImage as Variant } from "../../server/modules/catalog/photo-values.shared";
import type { RootData } from "../root";
import { fixedSlot, liteChoices, sizesOf, srcsetOf, variantFor, variantsOf, type ImageSlot } from "./image-slots";

export const PLACEHOLDER_IMAGE = "/images/placeholder-watch.svg";

/**
 * A product image with its size set (no layout shift) and a placeholder when the product has
 * no image. `eager` for images in the first screen (`priority` for the page's main image); the
 * rest load lazily.
 *
 * An uploaded photo (`images`, docs/product.md "Products") comes in several widths: the browser
 * picks one for the slot (`sizes`, from image-slots.ts) and its screen, AVIF where there is one
 * and it reads it; lite mode and `Save-Data: on` get the narrowest that fills the slot instead.
 * While it loads, the photo's tiny blurred placeholder (a data: URI inlined in the page) shows in
 * its place. An Image URL, or a drawn SVG watch, is one file as it is.
 */
export function ProductImage({
  src,
  alt,
  size = 400,
  eager = false,
  priority = false,
  className,
  images = [],
  placeholder = null,
  slot,
}: {
  src: string;
  alt: string;
  /** The width and height attributes (CSS sizes the image; these keep its place while it loads). */
  size?: number;
  eager?: boolean;
  /** The page's main image: eager and fetched first. */
  priority?: boolean;
  className?: string;
  images?: readonly Variant[];
  placeholder?: string | null;
  /** Where the image sits; a fixed square of `size` unless said. */
  slot?: ImageSlot;
}) {
  const lite = (useRouteLoaderData("root") as RootData | undefined)?.lite === true;
  const loading = eager || priority ? "eager" : "lazy";
  const webp = variantsOf(images, "image/webp");
  if (webp.length === 0) {
    return (
      <img
        className={className}
        src={src || PLACEHOLDER_IMAGE}
        alt={alt}
        width={size}
        height={size}
        loading={loading}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        // An image that fails to load is replaced once by the placeholder (with JavaScript).
        onError={(event) => {
          const image = event.currentTarget;
          if (!image.src.endsWith(PLACEHOLDER_IMAGE)) image.src = PLACEHOLDER_IMAGE;
        }}
      />
    );
  }

  const avif = variantsOf(images, "image/avif");
  const where = slot ?? fixedSlot(size);
  const largest = webp[webp.length - 1]!;
  const height = Math.round((size * largest.height) / largest.width);
  const common = {
    className,
    width: size,
    height,
    loading,
    decoding: "async",
    fetchPriority: priority ? "high" : undefined,
  } as const;

  let picture;
  if (lite) {
    // One file per viewport width, at one image pixel per CSS pixel: AVIF where there is one.
    const choices = liteChoices(where, avif.length > 0 ? avif : webp);
    const fallback = variantFor(webp, liteChoices(where, webp).at(-1)!.variant.width);
    picture = (
      <picture>
        {choices.map((choice, index) => (
          <source
            key={index}
            media={choice.media ?? undefined}
            type={choice.variant.type}
            srcSet={choice.variant.url}
          />
        ))}
        <img {...common} src={fallback.url} alt={alt} />
      </picture>
    );
  } else {
    const sizes = sizesOf(where);
    const fallback = variantFor(webp, 720);
    const image = <img {...common} src={fallback.url} srcSet={srcsetOf(webp)} sizes={sizes} alt={alt} />;
    picture =
      avif.length > 0 ? (
        <picture>
          <source type="image/avif" srcSet={srcsetOf(avif)} sizes={sizes} />
          {image}
        </picture>
      ) : (
        image
      );
  }
  if (!placeholder) return picture;
  return (
    <span className="photo">
      <img
        className={`${className ?? ""} photo__placeholder`.trim()}
        src={placeholder}
        alt=""
        width={size}
        height={height}
      />
      {picture}
    </span>
  );
}
