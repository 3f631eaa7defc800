import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./guards";

/** Where a browser goes when it reads `location` in a redirect from https://shop.example. */
const target = (location: string) => new URL(location, "https://shop.example/some/page");

describe("safeRedirectPath", () => {
  it("never sends a browser to another host, whatever it is given", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      ".",
      "..",
      "%2e",
      "%2f",
      "%5c",
      "evil.example",
      ":",
      "@",
      "?",
      "#",
      "\t",
      " ",
      "https:",
      "javascript:",
    );
    const hostile = fc.oneof(
      fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")),
      fc.string({ unit: "binary", maxLength: 40 }),
    );
    fc.assert(
      fc.property(hostile, (value) => {
        const result = safeRedirectPath(value);
        expect(result.startsWith("/") && !result.startsWith("//"), JSON.stringify([value, result])).toBe(true);
        expect(target(result).origin, JSON.stringify([value, result])).toBe("https://shop.example");
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps a path of this site, with its query and fragment", () => {
    expect(safeRedirectPath("/products?category=Men#top")).toBe("/products?category=Men#top");
    expect(safeRedirectPath("/products/../cart")).toBe("/cart");
  });

  it("refuses the known tricks", () => {
    for (const value of [
      "//evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "/a/..//evil.example",
      "/%2e%2e//evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "\\\\evil.example",
    ]) {
      expect(safeRedirectPath(value), value).toBe("/");
    }
  });
});
