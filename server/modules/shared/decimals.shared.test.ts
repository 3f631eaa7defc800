import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasAtMostDecimals } from "./decimals.shared";

describe("hasAtMostDecimals", () => {
  it("takes amounts in paisa, with a float's noise", () => {
    for (const value of [0, 1, 19.99, 0.01, 0.1 + 0.2, 1234.45, 9_999_999_999.99, -5.5]) {
      expect(hasAtMostDecimals(value, 2), String(value)).toBe(true);
    }
    expect(hasAtMostDecimals(40.1 - 0.1, 0)).toBe(true);
    expect(hasAtMostDecimals(42.5, 1)).toBe(true);
  });

  it("refuses a third decimal, however small the number", () => {
    for (const value of [1.005, 0.001, 5e-324, 1e-300, 1e-9, 12.345, Infinity]) {
      expect(hasAtMostDecimals(value, 2), String(value)).toBe(false);
    }
    expect(hasAtMostDecimals(40.5, 0)).toBe(false);
    expect(hasAtMostDecimals(42.55, 1)).toBe(false);
  });

  it("takes every whole number of paisa written as rupees", () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }), (paisa) => {
        expect(hasAtMostDecimals(Number((paisa / 100).toFixed(2)), 2)).toBe(true);
      }),
    );
  });
});
