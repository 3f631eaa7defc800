import { describe, expect, it } from "vitest";
import type { ProductImage } from "../../server/modules/shared/product-images.shared";
import {
  CARD_SLOT,
  DETAIL_SLOT,
  NEW_ARRIVALS_SLOT,
  fixedSlot,
  liteChoices,
  sizesOf,
  srcsetOf,
  variantFor,
  variantsOf,
} from "./image-slots";

const webp = [160, 320, 480, 720, 960, 1440].map((width): ProductImage => ({
  url: `/photos/x-${width}w.webp`,
  width,
  height: width,
  type: "image/webp",
}));

/** The slot's width at a viewport width, as the browser would compute `sizes` at 1x. */
function slotWidth(slot: typeof CARD_SLOT, viewport: number): number {
  const range = slot.find((candidate) => candidate.upTo === undefined || viewport <= candidate.upTo)!;
  return (range.vw * viewport) / 100 + range.px;
}

/** Which lite choice a viewport gets: the first whose media matches, else the last. */
function liteAt(choices: ReturnType<typeof liteChoices>, viewport: number): number {
  const choice = choices.find((c) => c.media === null || viewport <= Number(/(\d+)px/.exec(c.media)![1]));
  return choice!.variant.width;
}

describe("image slots", () => {
  it("writes sizes from the layout, capping phones denser than 2x at twice their CSS width", () => {
    expect(sizesOf(DETAIL_SLOT)).toBe(
      "(max-width: 820px) and (min-resolution: 2.5dppx) calc(66.67vw - 21.33px), (max-width: 820px) calc(100vw - 32px), " +
        "(max-width: 1199px) calc(50vw - 32px), 568px",
    );
    expect(sizesOf(fixedSlot(56))).toBe("(min-resolution: 2.5dppx) 37.33px, 56px");
  });

  it("lists variants narrowest first, one type at a time", () => {
    const mixed: ProductImage[] = [...webp]
      .reverse()
      .concat({ ...webp[0]!, type: "image/avif", url: "/photos/a.avif" });
    expect(variantsOf(mixed, "image/webp").map((v) => v.width)).toEqual([160, 320, 480, 720, 960, 1440]);
    expect(srcsetOf(variantsOf(mixed, "image/avif"))).toBe("/photos/a.avif 160w");
    expect(variantFor(webp, 161).width).toBe(320);
    expect(variantFor(webp, 5000).width).toBe(1440);
  });

  it.each([
    ["card", CARD_SLOT],
    ["new arrivals", NEW_ARRIVALS_SLOT],
    ["detail", DETAIL_SLOT],
  ] as const)(
    "gives lite mode the narrowest variant that fills the %s slot, at every viewport width",
    (_name, slot) => {
      const choices = liteChoices(slot, webp);
      expect(choices[choices.length - 1]!.media).toBeNull();
      for (let viewport = 280; viewport <= 2560; viewport++) {
        const chosen = liteAt(choices, viewport);
        const needed = slotWidth(slot, viewport);
        expect(chosen, `at ${viewport}px the slot is ${needed}px`).toBe(variantFor(webp, needed).width);
      }
    },
  );

  it("keeps lite markup short: a phone's product page gets 480 pixels, a desktop's 720; a card half that", () => {
    const choices = liteChoices(DETAIL_SLOT, webp);
    expect(choices.length).toBeLessThanOrEqual(7);
    expect(liteAt(choices, 390)).toBe(480);
    expect(liteAt(choices, 1366)).toBe(720);
    // Two cards a row on a phone (155 pixels each at 390), four on a desktop (254 pixels).
    expect(liteAt(liteChoices(CARD_SLOT, webp), 390)).toBe(160);
    expect(liteAt(liteChoices(CARD_SLOT, webp), 1366)).toBe(320);
    expect(liteChoices(fixedSlot(96), webp)).toEqual([{ media: null, variant: webp[0] }]);
  });
});
