const rupees = new Intl.NumberFormat("en-PK", { maximumFractionDigits: 2, minimumFractionDigits: 0 });

/** Every price in the store is shown through here: "Rs. 12,500" (paisa only when there are any). */
export function formatRupees(amount: number): string {
  return `Rs. ${rupees.format(amount)}`;
}
