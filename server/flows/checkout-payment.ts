import type { Knex } from "knex";
import { bankAccountOf } from "../modules/payments/bank-transfer.shared";
import { bankTransferSettings } from "../modules/confirmation/order-rules";
import type { PaymentMethod } from "../providers/payment-methods/payment-methods.shared";

/** What checkout offers: the methods, and for a bank transfer the store's account and its discount. */
export type PaymentChoice = {
  methods: readonly PaymentMethod[];
  account: ReturnType<typeof bankAccountOf>;
  discountPercent: number | null;
};

/**
 * The payment methods offered at checkout now, the first being the one an order takes when it
 * names none: those PAYMENT_METHODS chose, a method paid in advance only while the store's bank
 * account is set (docs/product.md, "Paying in advance"); with the account and its discount.
 */
export async function paymentChoice(db: Knex, methods: readonly PaymentMethod[]): Promise<PaymentChoice> {
  const settings = await bankTransferSettings(db);
  const account = bankAccountOf(settings);
  return {
    methods: methods.filter((method) => !method.paidBeforeShipping || account !== null),
    account,
    discountPercent: account ? settings.bankTransferDiscountPercent : null,
  };
}
