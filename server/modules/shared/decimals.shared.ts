/**
 * True when a number has at most `decimals` decimals, judged on the number the user meant: a
 * float's noise (0.1 + 0.2 is 0.30000000000000004) is not a third decimal, but anything else is.
 * The tolerance is relative to the number: an absolute one (a millionth of a paisa, as before)
 * took 5e-324 for 0.00, an amount "more than 0" that the database's numeric(12, 2) stored as
 * 0.00 and its check refused (a 500, found by tests/integration/hostile-input-pages.test.ts).
 */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const factor = 10 ** decimals;
  const nearest = Math.round(value * factor) / factor;
  return Math.abs(value - nearest) <= Math.abs(value) * 1e-12;
}
