import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { ProductImage as Variant } from "../../server/modules/shared/product-images.shared";
import type { RootData } from "../root";
import { fixedSlot, liteChoices, sizesOf, srcsetOf, variantFor, variantsOf, type ImageSlot } from "./image-slots";

export const PLACEHOLDER_IMAGE = "/images/placeholder-watch.svg";

/**
 * A product image with its size set (no layout shift) and a placeholder when the product has
 * no image. `eager` for images in the first screen (`priority` for the page's main image); the
 * rest load lazily.
 *
 * An uploaded photo (`images`, docs/product.md "Products") comes in several widths: the browser
 * picks one for the slot (`sizes`, from image-slots.ts) and its screen; a browser that reads AVIF
 * gets the smaller file at each width (every such browser reads WebP too). Lite mode and
 * `Save-Data: on` get the narrowest that fills the slot instead.
 * While it loads, the photo's tiny blurred placeholder (a data: URI inlined in the page) shows in
 * its place. An Image URL, or a drawn SVG watch, is one file as it is.
 *
 * An image address that cannot be loaded shows the placeholder too. Without JavaScript the stylesheet
 * does it (`.product-image::after` in app/app.css covers a broken image); with it, the image is
 * swapped for the placeholder, also when it failed before the scripts ran and its error event
 * went unheard.
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
  const image = useRef<HTMLImageElement>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  useEffect(() => {
    const element = image.current;
    // Loaded: a natural width. Not yet loaded (lazy, or still on its way): not complete.
    if (src && element && element.complete && element.naturalWidth === 0) setFailedSrc(src);
  }, [src]);
  const loading = eager || priority ? "eager" : "lazy";
  const webp = variantsOf(images, "image/webp");
  if (webp.length === 0) {
    return (
      <img
        ref={image}
        className={className ? `product-image ${className}` : "product-image"}
        src={!src || failedSrc === src ? PLACEHOLDER_IMAGE : src}
        alt={alt}
        width={size}
        height={size}
        loading={loading}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        onError={() => {
          if (src) setFailedSrc(src);
        }}
      />
    );
  }

  // For browsers that read AVIF: the smaller file at each width (AVIF where it was kept).
  const avif = variantsOf(images, "image/avif");
  const smallest = webp.map((variant) => avif.find((candidate) => candidate.width === variant.width) ?? variant);
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
    // One file per range of viewport widths, at one image pixel per CSS pixel; an AVIF file is
    // followed by the WebP of the same width for browsers that do not read AVIF.
    const choices = liteChoices(where, smallest).flatMap(({ media, variant }) =>
      variant.type === "image/avif"
        ? [
            { media, variant },
            { media, variant: webp.find((candidate) => candidate.width === variant.width)! },
          ]
        : [{ media, variant }],
    );
    const widest = liteChoices(where, webp).at(-1)!.variant;
    picture = (
      <picture>
        {choices.map(({ media, variant }) =>
          media === null && variant === widest ? null : (
            <source
              key={`${media} ${variant.url}`}
              media={media ?? undefined}
              type={variant.type}
              srcSet={variant.url}
            />
          ),
        )}
        <img {...common} src={widest.url} alt={alt} />
      </picture>
    );
  } else {
    const sizes = sizesOf(where);
    const fallback = variantFor(webp, 720);
    const image = <img {...common} src={fallback.url} srcSet={srcsetOf(webp)} sizes={sizes} alt={alt} />;
    picture =
      avif.length > 0 ? (
        <picture>
          <source type="image/avif" srcSet={srcsetOf(smallest)} sizes={sizes} />
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
