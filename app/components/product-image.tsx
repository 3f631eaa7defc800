export const PLACEHOLDER_IMAGE = "/images/placeholder-watch.svg";

/**
 * A product image with its size set (no layout shift) and a placeholder when the product has
 * no image. `eager` for images in the first screen; the rest load lazily.
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
  return (
    <img
      className={className}
      src={src || PLACEHOLDER_IMAGE}
      alt={alt}
      width={size}
      height={size}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      // An image that fails to load is replaced once by the placeholder (with JavaScript).
      onError={(event) => {
        const image = event.currentTarget;
        if (!image.src.endsWith(PLACEHOLDER_IMAGE)) image.src = PLACEHOLDER_IMAGE;
      }}
    />
  );
}
