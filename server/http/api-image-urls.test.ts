import { describe, expect, it } from "vitest";
import { withAbsoluteImageUrls } from "./api-image-urls";

const SITE = "https://waqt.example";

describe("withAbsoluteImageUrls", () => {
  it("makes each imageUrl and each url of an images list absolute, at any depth", () => {
    const answer = {
      data: [
        {
          _id: "p1",
          imageUrl: "/images/watch.svg",
          images: [
            { width: 320, url: "/photos/abc-320.avif" },
            { width: 640, url: "photos/abc-640.webp" },
          ],
          specs: { features: ["Date"], movement: "Quartz" },
        },
      ],
      order: { lines: [{ product: { imageUrl: "/images/strap.svg" } }] },
    };
    expect(withAbsoluteImageUrls(answer, SITE)).toEqual({
      data: [
        {
          _id: "p1",
          imageUrl: `${SITE}/images/watch.svg`,
          images: [
            { width: 320, url: `${SITE}/photos/abc-320.avif` },
            { width: 640, url: `${SITE}/photos/abc-640.webp` },
          ],
          specs: { features: ["Date"], movement: "Quartz" },
        },
      ],
      order: { lines: [{ product: { imageUrl: `${SITE}/images/strap.svg` } }] },
    });
  });

  it("leaves absolute addresses, empty values, other urls, dates and non-objects as they are", () => {
    const when = new Date("2026-11-26T10:00:00Z");
    const answer = {
      imageUrl: "https://cdn.example/w.jpg",
      other: { imageUrl: "" },
      link: { url: "/not-an-image" },
      createdAt: when,
      count: 3,
      none: null,
    };
    const made = withAbsoluteImageUrls(answer, SITE);
    expect(made).toEqual(answer);
    expect(made.createdAt).toBe(when);
    expect(withAbsoluteImageUrls("/images/x.svg", SITE)).toBe("/images/x.svg");
    expect(withAbsoluteImageUrls(null, SITE)).toBeNull();
  });

  it("answers a copy: the objects given (which a cache may hold) are not changed", () => {
    const product = { imageUrl: "/images/watch.svg", images: [{ url: "/photos/a.avif" }] };
    const made = withAbsoluteImageUrls([product], SITE);
    expect(product).toEqual({ imageUrl: "/images/watch.svg", images: [{ url: "/photos/a.avif" }] });
    expect(made[0]).not.toBe(product);
  });

  it("copies only the way to an address it changes; the rest of the answer is shared, unchanged", () => {
    const specs = { features: ["Date"], movement: "Quartz" };
    const facets = { brand: [{ value: "omega", label: "Omega", count: 3 }] };
    const answer = { products: [{ imageUrl: "/images/watch.svg", specs }], facets };
    const made = withAbsoluteImageUrls(answer, SITE);
    expect(made.products[0]!.imageUrl).toBe(`${SITE}/images/watch.svg`);
    expect(made.products[0]!.specs).toBe(specs);
    expect(made.facets).toBe(facets);
    expect(answer.products[0]!.imageUrl).toBe("/images/watch.svg");
  });

  it("answers an instance of a class as a plain copy of its own fields, address or not", () => {
    class Stored {
      name = "Seiko 5";
      toJSON() {
        return "the instance's own serialisation";
      }
    }
    const made = withAbsoluteImageUrls({ product: new Stored() }, SITE);
    expect(JSON.stringify(made)).toBe('{"product":{"name":"Seiko 5"}}');
  });
});
