/**
 * A way to pay for an order (docs/decisions/2026-11-25-providers.md). Cash on delivery is the
 * first; an advance payment (a bank transfer) is one that must be paid before the order ships.
 * Plain data and pure functions: pages, mails and the API's document read it.
 */
export type PaymentMethod = {
  /** The setting's word for it, in PAYMENT_METHODS. */
  readonly id: string;
  /**
   * The order's value for it: stored on the order (the database's CHECK lists every method's)
   * and answered by the API as `paymentMethod`. Never changes once orders carry it.
   */
  readonly name: string;
  /** How pages and mails name it. */
  readonly label: string;
  /** At checkout, beside its label: how paying works. */
  readonly checkoutNote: string;
  /**
   * True when the order is paid before it ships (an advance payment); false when the courier
   * collects the amount at the door, which the packing slip then says.
   */
  readonly paidBeforeShipping: boolean;
  /** What the customer does to pay, once the order is placed: the order's mail says it. */
  howToPay(amount: string): string;
  /** The same among the next steps the order's page lists right after checkout. */
  nextStep(amount: string): string;
};
