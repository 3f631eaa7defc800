import { describe, expect, it } from "vitest";
import { brandTitle, pageMeta } from "./meta";
import { formatRupees } from "./money";

const site = { name: "Waqt", publicUrl: "https://waqt.pk", tagline: "" };

describe("page metadata", () => {
  it("adds the brand to a title that lacks it, and only then", () => {
    expect(brandTitle("Products", "Waqt")).toBe("Products | Waqt");
    expect(brandTitle("Waqt watches", "Waqt")).toBe("Waqt watches");
    expect(brandTitle(undefined, "Waqt")).toMatch(/^Waqt \| Premium Authentic Watches/);
  });

  it("makes canonical and social addresses absolute and marks private pages noindex", () => {
    const tags = pageMeta(site, { title: "Cart", path: "/cart", image: "/images/hero.svg", noindex: true });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://waqt.pk/cart" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://waqt.pk/cart" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://waqt.pk/images/hero.svg" });
    expect(tags).toContainEqual({ name: "robots", content: "noindex, nofollow" });
    expect(pageMeta(site, { title: "Home", path: "/" })).not.toContainEqual(
      expect.objectContaining({ name: "robots" }),
    );
  });
});

describe("money", () => {
  it("shows rupees with thousands separators and paisa only when present", () => {
    expect(formatRupees(12500)).toBe("Rs. 12,500");
    expect(formatRupees(1250000)).toBe("Rs. 1,250,000");
    expect(formatRupees(99.5)).toBe("Rs. 99.50");
    expect(formatRupees(0)).toBe("Rs. 0");
  });
});
