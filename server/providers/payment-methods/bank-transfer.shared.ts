import type { PaymentMethod } from "./payment-method.shared";

/**
 * The customer pays in advance by bank transfer or Raast to the store's account (docs/product.md,
 * "Paying in advance"): the order ships only once an admin verified the payment. Offered only
 * while the store's account details are set (the order settings).
 */
export const bankTransfer = {
  id: "bank-transfer",
  name: "Bank Transfer",
  label: "Bank transfer / Raast",
  checkoutNote: "pay in advance to our bank account or Raast ID; we ship once your payment is verified.",
  paidBeforeShipping: true,
  howToPay: (amount: string) =>
    `Send ${amount} by bank transfer or Raast to the account shown on your order's page, then enter the transaction reference there. We ship your order once the payment is verified.`,
  nextStep: (amount: string) =>
    `Send ${amount} by bank transfer or Raast to the account below, then enter the transaction reference.`,
} as const satisfies PaymentMethod;
