const wholeRupees = new Intl.NumberFormat("en-PK", { maximumFractionDigits: 0 });
const withPaisa = new Intl.NumberFormat("en-PK", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Every price in the store is shown through here: "Rs. 12,500" (paisa only when there are any). */
export function formatRupees(amount: number): string {
  const hasPaisa = Math.round(amount * 100) % 100 !== 0;
  return `Rs. ${(hasPaisa ? withPaisa : wholeRupees).format(amount)}`;
}
