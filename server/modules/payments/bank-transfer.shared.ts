import { toPaisa, fromPaisa } from "../shared/money.shared";

/**
 * The store's bank account for advance payments (docs/product.md, "Paying in advance"), as the
 * admin sets it in the order settings: plain data, so the checkout and order pages read the same
 * rule the server applies.
 */
export type BankTransferSettings = {
  bankAccountTitle: string | null;
  bankName: string | null;
  /** PK + 2 check digits + 4 letters (the bank) + 16 digits, without spaces, in capitals. */
  iban: string | null;
  /** The store's Raast ID: a mobile number, stored as +923…. */
  raastId: string | null;
  /** Taken off the order (after any discount code) for paying in advance; null: none. */
  bankTransferDiscountPercent: number | null;
  /** An order still unpaid this many hours after it was placed is cancelled; null: never. */
  unpaidTransferHours: number | null;
};

/** An IBAN as Pakistani banks issue it (24 characters). */
export const IBAN_PATTERN = /^PK\d{2}[A-Z]{4}\d{16}$/;
export const IBAN_MESSAGE =
  "Enter a Pakistani IBAN: PK, 2 digits, 4 letters and 16 digits, e.g. PK36SCBL0000001123456702";

/** The account the customer pays to, or null while the store has not set one: then the method is not offered. */
export function bankAccountOf(settings: BankTransferSettings): {
  title: string;
  bank: string;
  iban: string;
  raastId: string | null;
} | null {
  const { bankAccountTitle, bankName, iban, raastId } = settings;
  if (!bankAccountTitle || !bankName || !iban) return null;
  return { title: bankAccountTitle, bank: bankName, iban, raastId };
}

/** What the discount for paying in advance takes off an amount, in paisa, rounded half up. */
export function advanceDiscountPaisa(amountPaisa: number, percent: number | null): number {
  if (!percent) return 0;
  return Math.round((amountPaisa * toPaisa(percent)) / 10_000);
}

/** The IBAN in groups of four, as banks print it. */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})/g, "$1 ").trim();
}

/** The same in rupees, for the checkout page's summary. */
export function advanceDiscount(amount: number, percent: number | null): number {
  return fromPaisa(advanceDiscountPaisa(toPaisa(amount), percent));
}
