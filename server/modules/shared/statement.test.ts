import { describe, expect, it } from "vitest";
import { composeStatement } from "./statement";

describe("a statement composed of the modules' parts", () => {
  it("puts each part in a WITH query of its name, with every part's bindings", () => {
    expect(
      composeStatement(
        [
          {
            name: "customer",
            materialized: true,
            sql: "SELECT id FROM users WHERE id = :userId",
            bindings: { userId: "u" },
          },
          {
            name: "profiled",
            sql: "UPDATE users SET phone = :phone WHERE id = :userId",
            bindings: { userId: "u", phone: "p" },
          },
        ],
        { sql: "SELECT id FROM customer", bindings: {} },
      ),
    ).toEqual({
      sql: "WITH customer AS MATERIALIZED (SELECT id FROM users WHERE id = :userId), profiled AS (UPDATE users SET phone = :phone WHERE id = :userId)\nSELECT id FROM customer",
      bindings: { userId: "u", phone: "p" },
    });
  });

  it("refuses two parts of one name, or one binding name with two values", () => {
    const part = { name: "a", sql: "SELECT 1", bindings: { id: 1 } };
    expect(() => composeStatement([part, { ...part }], { sql: "SELECT 1" })).toThrow("Two statement parts are named a");
    expect(() =>
      composeStatement([part, { name: "b", sql: "SELECT 2", bindings: { id: 2 } }], { sql: "SELECT 1" }),
    ).toThrow("Statement parts bind :id to different values");
  });
});
