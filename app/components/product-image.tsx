import { useEffect, useRef, useState } from "react";

export const PLACEHOLDER_IMAGE = "/images/placeholder-watch.svg";

/**
 * A product image with its size set (no layout shift) and a placeholder when the product has
 * no image. `eager` for images in the first screen; the rest load lazily.
 *
 * An image that cannot be loaded shows the placeholder too. Without JavaScript the stylesheet
 * does it (`.product-image::after` in app/app.css covers a broken image); with it, the image is
 * swapped for the placeholder, also when it failed before the scripts ran and its error event
 * went unheard.
 */
export function ProductImage({
  src,
  alt,
  size = 400,
  eager = false,
  className,
}: {
  src: string;
  alt: string;
  size?: number;
  eager?: boolean;
  className?: string;
}) {
  const image = useRef<HTMLImageElement>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  useEffect(() => {
    const element = image.current;
    // Loaded: a natural width. Not yet loaded (lazy, or still on its way): not complete.
    if (src && element && element.complete && element.naturalWidth === 0) setFailedSrc(src);
  }, [src]);
  const shown = !src || failedSrc === src ? PLACEHOLDER_IMAGE : src;
  return (
    <img
      ref={image}
      className={className ? `product-image ${className}` : "product-image"}
      src={shown}
      alt={alt}
      width={size}
      height={size}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      onError={() => {
        if (src) setFailedSrc(src);
      }}
    />
  );
}
