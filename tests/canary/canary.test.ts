import { expect, it } from "vitest";

/**
 * Fails on purpose. It runs only when WAQT_CANARY=1 (vitest.config.ts), and .ci/run checks that
 * `npm test` then exits non-zero and reports it: a test gate that cannot fail proves nothing.
 */
it("fails on purpose, so that CI can see a failing test turn npm test red", () => {
  expect(1).toBe(2);
});
