/**
 * Money is added up in whole paisa (1 rupee = 100 paisa), never in floating rupees, so no amount
 * is rounded twice. Prices are numeric(12, 2) in the database; these turn them into paisa and back.
 */
export function toPaisa(rupees: number): number {
  return Math.round(rupees * 100);
}

export function fromPaisa(paisa: number): number {
  return paisa / 100;
}
