import type { ProductImage } from "../../server/modules/shared/product-images.shared";

/**
 * Where product photos are shown, and how wide each place is, in CSS pixels, as app.css lays it
 * out: below `upTo` pixels of viewport width (inclusive) the slot is `vw`% of the viewport plus
 * `px`; the last range, with no `upTo`, is a fixed width. From this one description come the
 * `sizes` attribute (the browser then picks a variant for its screen's density) and, in lite mode
 * or with `Save-Data: on`, the smallest variant that fills the slot at each width.
 */
export type SlotRange = { upTo?: number; vw: number; px: number };
export type ImageSlot = readonly SlotRange[];

/**
 * Catalogue cards: .site-main has 1rem of padding each side; .product-grid has one column below
 * 360px, two (0.75rem gap) below 640px, three (1rem gaps) below 960px, then four; a card has
 * 0.5rem of padding below 640px (0.75rem from there) and a 1px border.
 */
export const CARD_SLOT: ImageSlot = [
  { upTo: 359, vw: 100, px: -50 },
  { upTo: 639, vw: 50, px: -40 },
  { upTo: 959, vw: 33.33, px: -47.33 },
  { upTo: 1199, vw: 25, px: -46 },
  { vw: 0, px: 254 },
];

/** The home page's four new arrivals (.product-grid--four): two columns up to 959px, then four. */
export const NEW_ARRIVALS_SLOT: ImageSlot = [
  { upTo: 359, vw: 100, px: -50 },
  { upTo: 639, vw: 50, px: -40 },
  { upTo: 959, vw: 50, px: -50 },
  { upTo: 1199, vw: 25, px: -46 },
  { vw: 0, px: 254 },
];

/** The product page: the full width of .site-main up to 820px, then half of it (2rem gap), at most 568px. */
export const DETAIL_SLOT: ImageSlot = [
  { upTo: 820, vw: 100, px: -32 },
  { upTo: 1199, vw: 50, px: -32 },
  { vw: 0, px: 568 },
];

/** A fixed thumbnail (cart, checkout, orders, admin tables). */
export const fixedSlot = (px: number): ImageSlot => [{ vw: 0, px }];

/**
 * Screens denser than this get images for twice their CSS size, not three times: the difference
 * is invisible on a phone held at arm's length, and the bytes are more than double.
 */
const DENSITY_CAP = 2;
/** Only phone-sized ranges get the cap; larger screens are at most 2x anyway. */
const PHONE_WIDTH = 960;

const round = (value: number) => Math.round(value * 100) / 100;

function lengthOf(range: SlotRange, scale = 1): string {
  const vw = round(range.vw * scale);
  const px = round(range.px * scale);
  if (vw === 0) return `${px}px`;
  if (px === 0) return `${vw}vw`;
  return `calc(${vw}vw ${px < 0 ? "-" : "+"} ${Math.abs(px)}px)`;
}

/** The `sizes` attribute of a slot, with the density cap for phones (min-resolution: 2.5dppx and up). */
export function sizesOf(slot: ImageSlot): string {
  return slot
    .flatMap((range) => {
      // A thumbnail of fixed size (the whole slot one range) is capped too; a layout's last
      // range is for wide screens only.
      if (range.upTo === undefined) {
        return slot.length === 1
          ? [`(min-resolution: ${DENSITY_CAP + 0.5}dppx) ${lengthOf(range, DENSITY_CAP / 3)}`, lengthOf(range)]
          : [lengthOf(range)];
      }
      const media = `(max-width: ${range.upTo}px)`;
      const capped =
        range.upTo <= PHONE_WIDTH && range.vw > 0
          ? [`${media} and (min-resolution: ${DENSITY_CAP + 0.5}dppx) ${lengthOf(range, DENSITY_CAP / 3)}`]
          : [];
      return [...capped, `${media} ${lengthOf(range)}`];
    })
    .join(", ");
}

/** The variants of one type, narrowest first. */
export function variantsOf(images: readonly ProductImage[], type: ProductImage["type"]): ProductImage[] {
  return images.filter((image) => image.type === type).sort((a, b) => a.width - b.width);
}

export function srcsetOf(variants: readonly ProductImage[]): string {
  return variants.map((variant) => `${variant.url} ${variant.width}w`).join(", ");
}

/** The narrowest variant at least `width` wide, or the widest there is. */
export function variantFor(variants: readonly ProductImage[], width: number): ProductImage {
  return variants.find((variant) => variant.width >= width) ?? variants[variants.length - 1]!;
}

/**
 * Lite mode: for each range of viewport widths, the narrowest variant that fills the slot at
 * one image pixel per CSS pixel, as `<source media>` conditions in order (the first that matches
 * wins), and the variant for the widest screens last (the `<img>` itself, media null).
 */
export function liteChoices(
  slot: ImageSlot,
  variants: readonly ProductImage[],
): { media: string | null; variant: ProductImage }[] {
  const choices: { upTo: number | null; variant: ProductImage }[] = [];
  let from = 0;
  for (const range of slot) {
    if (range.upTo === undefined || range.vw === 0) {
      const upTo = range.upTo ?? null;
      choices.push({ upTo, variant: variantFor(variants, range.px) });
      if (upTo === null) break;
      from = upTo + 1;
      continue;
    }
    const slotAt = (viewport: number) => (range.vw * viewport) / 100 + range.px;
    let viewport = from;
    while (viewport <= range.upTo) {
      const variant = variantFor(variants, slotAt(viewport));
      // The widest viewport of this range where this variant still fills the slot.
      const fillsUpTo = Math.floor(((variant.width - range.px) * 100) / range.vw);
      const upTo = variant === variants[variants.length - 1] ? range.upTo : Math.min(fillsUpTo, range.upTo);
      choices.push({ upTo, variant });
      viewport = upTo + 1;
    }
    from = range.upTo + 1;
  }
  if (choices[choices.length - 1]?.upTo !== null) {
    choices.push({ upTo: null, variant: variants[variants.length - 1]! });
  }
  // Neighbours with the same variant are one condition.
  const merged: typeof choices = [];
  for (const choice of choices) {
    const previous = merged[merged.length - 1];
    if (previous && previous.variant === choice.variant) previous.upTo = choice.upTo;
    else merged.push({ ...choice });
  }
  return merged.map(({ upTo, variant }) => ({
    media: upTo === null ? null : `(max-width: ${upTo}px)`,
    variant,
  }));
}
