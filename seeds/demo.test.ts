import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/support/test-database";
import { demoWatches } from "./data/demo-watches";
import { demoWatchSpecs } from "./data/demo-watch-specs";
import { specsSchema } from "../server/modules/catalog/catalog.schemas";
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

  it("gives every watch real specifications the product form would accept, and none to a watch it lacks", () => {
    expect(Object.keys(demoWatchSpecs).sort()).toEqual(demoWatches.map((watch) => watch.slug).sort());
    for (const watch of demoWatches) {
      const specs = specsSchema.validateSync(demoWatchSpecs[watch.slug], { strict: true, abortEarly: false });
      expect(specs.movement, watch.slug).not.toBeNull();
      expect(specs.caseDiameterMm, watch.slug).not.toBeNull();
      expect(specs.reference, watch.slug).not.toBeNull();
      // The description says the size the specifications give ("a 42 mm … case").
      expect(watch.description, watch.slug).toContain(`${specs.caseDiameterMm} mm`);
    }
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
    const brands = await database.db("brands").orderBy("slug").select("slug", "description");
    expect(brands.map((brand: { slug: string }) => brand.slug)).toEqual(
      [...new Set(demoWatches.map((watch) => watch.brand.toLowerCase().replace(/[^a-z0-9]+/g, "-")))].sort(),
    );
    for (const brand of brands) expect(brand.description, brand.slug).not.toBe("");
    const prx = await database.db("products").where("name", "Tissot PRX Powermatic 80").first();
    expect(prx).toMatchObject({ movement: "Automatic", caseDiameterMm: 40, waterResistanceM: 100, features: ["date"] });
    // A new store offers paying in advance, to a demo account.
    expect(await database.db("order_rules").where({ id: 1 }).first("bankIban", "bankAccountTitle")).toEqual({
      bankIban: "PK00DEMO0000000000000000",
      bankAccountTitle: "Waqt Demo Store",
    });
  });
});
