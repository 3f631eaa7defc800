import type { PaymentMethod } from "./payment-method.shared";

/** The courier collects the order's total in cash at the door (docs/product.md, "Orders"). */
export const cashOnDelivery = {
  id: "cash-on-delivery",
  name: "Cash on Delivery",
  label: "Cash on Delivery",
  checkoutNote: "pay in cash when your watch arrives.",
  paidBeforeShipping: false,
  howToPay: (amount: string) => `Pay the courier ${amount} in cash when your parcel arrives.`,
  nextStep: (amount: string) => `Pay ${amount} in cash when your order arrives (Cash on Delivery).`,
} as const satisfies PaymentMethod;
