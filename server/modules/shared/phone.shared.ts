/**
 * Pakistani mobile numbers (docs/product.md, "Orders"): a courier takes no parcel without the
 * receiver's mobile number, and the store calls it to confirm a cash-on-delivery order. Three
 * forms are accepted, with spaces and dashes anywhere: `03XX-XXXXXXX`, `03XXXXXXXXX` and
 * `+92 3XX XXXXXXX`. A number is stored as `+923XXXXXXXXX` and shown as `0300-1234567`.
 * Pure code: the pages use it to show numbers and to prefill forms.
 */
export const PHONE_MESSAGE = "Enter a Pakistani mobile number, e.g. 0300-1234567";

/** Longer input is refused before it is looked at (the longest accepted form, spaced out, is far shorter). */
export const PHONE_INPUT_MAX = 30;

const STORED = /^\+923\d{9}$/;

/** The stored form of a mobile number typed in one of the three accepted forms, or null. */
export function normalisePakistaniMobile(text: string | null | undefined): string | null {
  if (typeof text !== "string" || text.length > PHONE_INPUT_MAX) return null;
  const compact = text.trim().replace(/[ -]/g, "");
  if (/^03\d{9}$/.test(compact)) return `+92${compact.slice(1)}`;
  if (STORED.test(compact)) return compact;
  return null;
}

export function isStoredPakistaniMobile(value: unknown): value is string {
  return typeof value === "string" && STORED.test(value);
}

/** `+923001234567` → `0300-1234567`, as the store writes numbers; anything else as it is. */
export function formatPakistaniMobile(stored: string | null | undefined): string {
  if (!stored) return "";
  if (!STORED.test(stored)) return stored;
  const local = `0${stored.slice(3)}`;
  return `${local.slice(0, 4)}-${local.slice(4)}`;
}
