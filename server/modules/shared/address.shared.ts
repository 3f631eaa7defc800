/** The store ships across Pakistan: an address without a country is in Pakistan. */
export const DEFAULT_COUNTRY = "Pakistan";

export type Address = { street: string; city: string; state: string; zipCode: string; country: string };

/** An address's country, or the default when it was left empty. */
export function countryOrDefault(country: string | null | undefined): string {
  return country?.trim() || DEFAULT_COUNTRY;
}
