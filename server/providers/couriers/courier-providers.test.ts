import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { ConfigError, loadConfig } from "../../settings/config";
import { orderShape } from "../../modules/orders/order.shape";
import { COURIER_NAMES, courierProvidersChosen, trackingNumberRuleOf } from "./courier-providers.shared";
import { manualCourier } from "./manual-courier.shared";

const env = (settings: Record<string, string> = {}) => ({
  SESSION_SECRET: "a session secret that is long enough for the store",
  DATA_DIR: path.join(os.tmpdir(), "waqt-courier-providers-test"),
  ...settings,
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("courier providers", () => {
  it("are registered in one place and chosen by COURIER_PROVIDERS, the manual courier by default", () => {
    expect(loadConfig(env()).providers.courierProviders).toEqual(["manual"]);
    expect(() => loadConfig(env({ COURIER_PROVIDERS: "postex" }))).toThrow(ConfigError);
    expect(() => loadConfig(env({ COURIER_PROVIDERS: "postex" }))).toThrow(
      "Invalid configuration: COURIER_PROVIDERS must be a comma-separated list of manual (at least one)",
    );
    expect(courierProvidersChosen(["manual"])).toEqual([manualCourier]);
  });

  it("give the manual courier today's nine names and its typed tracking number rule", () => {
    expect(manualCourier.booking).toBe("typed");
    expect(COURIER_NAMES).toEqual([
      "TCS",
      "Leopards",
      "M&P",
      "Trax",
      "PostEx",
      "BlueEx",
      "Call Courier",
      "Pakistan Post",
      "Other",
    ]);
    const rule = trackingNumberRuleOf("TCS");
    for (const good of ["TCS-1234", "A".repeat(40)]) expect(rule.pattern.test(good), good).toBe(true);
    for (const bad of ["abc", "A".repeat(41), "TCS 1234", "TCS_1234"]) expect(rule.pattern.test(bad), bad).toBe(false);
  });

  it("are the couriers the API documents and the only ones the database takes", async () => {
    expect(orderShape.schema).toMatchObject({ properties: { courier: { enum: [...COURIER_NAMES, null] } } });
    const { rows } = await database.db.raw<{ rows: { definition: string }[] }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'orders_courier_valid'`,
    );
    const named = [...rows[0]!.definition.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replace(/''/g, "'"));
    expect(named.sort()).toEqual([...COURIER_NAMES].sort());
  });
});
