import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { ConfigError, loadConfig } from "../../settings/config";
import { orderShape } from "../../modules/orders/order.shape";
import { bankTransfer } from "./bank-transfer.shared";
import { cashOnDelivery } from "./cash-on-delivery.shared";
import { PAYMENT_METHOD_NAMES, paymentMethodNamed, paymentMethodsChosen } from "./payment-methods.shared";

/** The settings a configuration needs here: nothing from the caller's shell. */
const env = (settings: Record<string, string> = {}) => ({
  SESSION_SECRET: "a session secret that is long enough for the store",
  DATA_DIR: path.join(os.tmpdir(), "waqt-payment-methods-test"),
  ...settings,
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("payment methods", () => {
  it("are registered in one place and chosen by PAYMENT_METHODS, cash on delivery first by default", () => {
    expect(loadConfig(env()).providers.paymentMethods).toEqual(["cash-on-delivery", "bank-transfer"]);
    expect(
      loadConfig(env({ PAYMENT_METHODS: " cash-on-delivery , cash-on-delivery" })).providers.paymentMethods,
    ).toEqual(["cash-on-delivery"]);
    expect(loadConfig(env({ PAYMENT_METHODS: "bank-transfer" })).providers.paymentMethods).toEqual(["bank-transfer"]);
    for (const setting of ["cheque", ",", "cash-on-delivery,cheque"]) {
      expect(() => loadConfig(env({ PAYMENT_METHODS: setting })), setting).toThrow(ConfigError);
      expect(() => loadConfig(env({ PAYMENT_METHODS: setting })), setting).toThrow(
        "Invalid configuration: PAYMENT_METHODS must be a comma-separated list of cash-on-delivery, bank-transfer (at least one)",
      );
    }
    expect(paymentMethodsChosen(["cash-on-delivery", "bank-transfer"])).toEqual([cashOnDelivery, bankTransfer]);
  });

  it("say how an order is paid: cash on delivery is collected at the door, in the store's words", () => {
    const method = paymentMethodNamed("Cash on Delivery");
    expect(method.paidBeforeShipping).toBe(false);
    expect(method.howToPay("Rs. 5,000")).toBe("Pay the courier Rs. 5,000 in cash when your parcel arrives.");
    expect(paymentMethodNamed("Bank Transfer").paidBeforeShipping).toBe(true);
    expect(() => paymentMethodNamed("Cheque")).toThrow();
  });

  it("are the values the API documents and the only ones the database takes", async () => {
    expect(orderShape.schema).toMatchObject({ properties: { paymentMethod: { enum: [...PAYMENT_METHOD_NAMES] } } });
    const { rows } = await database.db.raw<{ rows: { definition: string }[] }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'orders_payment_method_valid'`,
    );
    const named = [...rows[0]!.definition.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replace(/''/g, "'"));
    expect(named.sort()).toEqual([...PAYMENT_METHOD_NAMES].sort());
  });
});
