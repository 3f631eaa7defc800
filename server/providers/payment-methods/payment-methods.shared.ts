import { bankTransfer } from "./bank-transfer.shared";
import { cashOnDelivery } from "./cash-on-delivery.shared";
import type { PaymentMethod } from "./payment-method.shared";

export type { PaymentMethod };

/**
 * Every payment method the store knows, registered here and nowhere else; PAYMENT_METHODS (a
 * setting) chooses those offered at checkout, in this order of preference, the first being the
 * one an order gets when it names none. A method stays here while orders carry its name, even
 * when it is no longer offered. Adding one: docs/recipes.md.
 */
export const PAYMENT_METHODS = [cashOnDelivery, bankTransfer] as const;

export type PaymentMethodId = (typeof PAYMENT_METHODS)[number]["id"];
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number]["name"];

export const PAYMENT_METHOD_IDS: readonly PaymentMethodId[] = PAYMENT_METHODS.map((method) => method.id);
/** The values an order's `paymentMethod` may have (the API's document and the database's CHECK). */
export const PAYMENT_METHOD_NAMES: readonly PaymentMethodName[] = PAYMENT_METHODS.map((method) => method.name);

/** The method an order names; an unknown name is a programming error (the database refuses it). */
export function paymentMethodNamed(name: string): PaymentMethod {
  const method = PAYMENT_METHODS.find((known) => known.name === name);
  if (!method) throw new Error(`Unknown payment method ${name}`);
  return method;
}

/** The methods a setting chooses, in its order (ids checked when the configuration is loaded). */
export function paymentMethodsChosen(ids: readonly string[]): PaymentMethod[] {
  return ids.map((id) => {
    const method = PAYMENT_METHODS.find((known) => known.id === id);
    if (!method) throw new Error(`Unknown payment method ${id}`);
    return method;
  });
}
