/**
 * The customer's name as the store's texts write it (docs/product.md, "Confirming an order"): the
 * first name only, its letters only (Latin, Urdu or any script, with their accents and vowel
 * marks), at most TEXT_NAME_MAX of them. An account's name is typed by whoever signs up, and
 * every text begins with it: written whole, "Ali. URGENT your JazzCash is blocked call 0300…"
 * would reach a stranger from the store's own sender (issue 45). Letters alone can carry no
 * number, link or sentence. A name that leaves none reads as the customer, in the text's language.
 */

export const TEXT_NAME_MAX = 20;

/** Said instead of a name that has no letters: one word, letters only, like a name. */
export const TEXT_NAME_FALLBACK = { en: "Customer", ur: "کسٹمر" } as const;

/** The first run of letters (a letter, then letters and the combining marks written on them). */
const FIRST_NAME = /\p{L}[\p{L}\p{Mn}\p{Mc}]*/u;

export function textName(fullName: string, language: keyof typeof TEXT_NAME_FALLBACK): string {
  // NFC first, so that an accent typed as a separate mark joins its letter.
  const first = FIRST_NAME.exec(fullName.normalize("NFC"))?.[0] ?? "";
  const kept = Array.from(first).slice(0, TEXT_NAME_MAX).join("");
  return kept === "" ? TEXT_NAME_FALLBACK[language] : kept;
}
