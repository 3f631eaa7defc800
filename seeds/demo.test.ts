import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/support/test-database";
import { demoWatches } from "./data/demo-watches";
import { isEmptyStore, seedDemoData } from "./demo";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("demo data", () => {
  it("is a real catalogue: 40+ watches of both collections, several brands, some sold out", () => {
    expect(demoWatches.length).toBeGreaterThanOrEqual(40);
    expect(new Set(demoWatches.map((watch) => watch.category))).toEqual(new Set(["Men", "Women"]));
    expect(new Set(demoWatches.map((watch) => watch.brand)).size).toBeGreaterThanOrEqual(5);
    expect(demoWatches.some((watch) => watch.stock === 0)).toBe(true);
    expect(new Set(demoWatches.map((watch) => watch.name)).size).toBe(demoWatches.length);
  });

  it("has an image in public/ for every watch", () => {
    for (const watch of demoWatches) {
      expect(fs.existsSync(path.join("public", watch.imageUrl)), watch.imageUrl).toBe(true);
    }
  });

  it("seeds once: a second run adds nothing", async () => {
    expect(await isEmptyStore(database.db)).toBe(true);
    const first = await seedDemoData(database.db);
    expect(first).toEqual({ products: demoWatches.length, users: 2 });
    expect(await isEmptyStore(database.db)).toBe(false);
    const second = await seedDemoData(database.db);
    expect(second).toEqual({ products: 0, users: 0 });
    const [{ count }] = await database.db("products").count<{ count: number }[]>("* as count");
    expect(count).toBe(demoWatches.length);
    // A new store offers paying in advance, to a demo account.
    expect(await database.db("order_rules").where({ id: 1 }).first("bankIban", "bankAccountTitle")).toEqual({
      bankIban: "PK00DEMO0000000000000000",
      bankAccountTitle: "Waqt Demo Store",
    });
  });
});
