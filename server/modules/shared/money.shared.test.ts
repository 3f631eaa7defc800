import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { proportionHalfUp } from "./money.shared";

describe("proportionHalfUp", () => {
  it("rounds half up to the paisa, not to even", () => {
    expect(proportionHalfUp(123_445, 1000, 10_000)).toBe(12_345); // 10% of Rs. 1,234.45
    expect(proportionHalfUp(123_444, 1000, 10_000)).toBe(12_344);
    expect(proportionHalfUp(5, 1000, 10_000)).toBe(1); // 0.5 paisa
    expect(proportionHalfUp(4, 1000, 10_000)).toBe(0);
    expect(proportionHalfUp(25, 1, 2)).toBe(13); // 12.5
    expect(proportionHalfUp(35, 1, 2)).toBe(18); // 17.5: half up, where banker's rounding gives 18 too
    expect(proportionHalfUp(45, 1, 2)).toBe(23); // 22.5: banker's rounding would give 22
  });

  it("is exact where floating point is not (products beyond 2^53)", () => {
    // 10^12 paisa × 99,999 overflows a double's exact integers.
    expect(proportionHalfUp(999_999_999_999, 99_999, 299_999)).toBe(333_331_111_103);
  });

  it("answers 0 for an empty whole", () => {
    expect(proportionHalfUp(100, 5, 0)).toBe(0);
  });

  it("never exceeds the amount for a share of at most the whole, and matches exact rational rounding", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 10 ** 9 }),
        (amount, whole, part) => {
          const numerator = Math.min(part, whole);
          const share = proportionHalfUp(amount, numerator, whole);
          expect(share).toBeLessThanOrEqual(amount);
          const exact = (BigInt(amount) * BigInt(numerator) * 2n + BigInt(whole)) / (2n * BigInt(whole));
          expect(BigInt(share)).toBe(exact);
        },
      ),
    );
  });
});
