import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { brandSlug } from "../../server/modules/catalog/brands.shared";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@brands.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@brands.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("products").del();
  await server.database.db("brands").del();
});

const brandOf = async (productId: string) =>
  (await server.database
    .db("products")
    .leftJoin("brands", "brands.id", "products.brand_id")
    .where("products.id", productId)
    .first("brands.name", "brands.slug")) as { name: string | null; slug: string | null };

describe("brand records", () => {
  it("match each product's brand text to one record, whatever its spelling, and follow an edit of the text", async () => {
    const [casio, alsoCasio, tag, none, symbols] = await insertProducts(server, [
      { name: "Duro", brand: "Casio" },
      { name: "G-Shock", brand: "  CASIO " },
      { name: "Carrera", brand: "TAG Heuer" },
      { name: "Plain", brand: "" },
      { name: "Odd", brand: "???" },
    ]);
    expect(await brandOf(casio!)).toEqual({ name: "Casio", slug: "casio" });
    expect(await brandOf(alsoCasio!)).toEqual({ name: "Casio", slug: "casio" });
    expect(await brandOf(tag!)).toEqual({ name: "TAG Heuer", slug: "tag-heuer" });
    expect(await brandOf(none!)).toEqual({ name: null, slug: null });
    expect(await brandOf(symbols!)).toEqual({ name: null, slug: null });
    expect(await server.database.db("brands").count("* as count").first()).toEqual({ count: 2 });

    const product = (await client.api("GET", `/products/${tag}`)).body.data;
    const edited = await client.api("PUT", `/products/${tag}`, {
      body: { ...product, brand: "Tissot" },
      token: adminToken,
    });
    expect(edited.status).toBe(200);
    expect(await brandOf(tag!)).toEqual({ name: "Tissot", slug: "tissot" });
    // A product cannot be linked to another brand than its text says, by any path.
    const casioId = (await server.database.db("brands").where({ slug: "casio" }).first("id")).id;
    await server.database.db("products").where({ id: tag }).update({ brandId: casioId });
    expect(await brandOf(tag!)).toEqual({ name: "Tissot", slug: "tissot" });
  });

  it("gives a brand's slug the same in the pages as in the database, for any text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 40 }), async (text) => {
        // PostgreSQL text cannot hold NUL; every other character is fair game.
        const clean = text.replaceAll(String.fromCharCode(0), "");
        const { rows } = await server.database.db.raw<{ rows: { slug: string | null }[] }>(
          "SELECT brand_slug(?) AS slug",
          [clean],
        );
        expect(rows[0]!.slug, JSON.stringify(clean)).toBe(brandSlug(clean));
      }),
      { numRuns: 200 },
    );
  });
});

describe("/brands/{slug}", () => {
  it("shows the brand's text and only its watches, linked from the catalogue's cards and the product page", async () => {
    const [turtle] = await insertProducts(server, [
      { name: "Seiko Turtle", brand: "Seiko" },
      { name: "Seiko Presage", brand: "seiko" },
      { name: "Casio Duro", brand: "Casio" },
    ]);
    await server.database
      .db("brands")
      .where({ slug: "seiko" })
      .update({ description: "Japanese watchmaker since 1881." });
    const response = await client.get("/brands/seiko");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Seiko Watches</h1>");
    expect(html).toContain("Japanese watchmaker since 1881.");
    const names = [...html.matchAll(/class="product-card__name">([^<]*)</g)].map((match) => match[1]);
    expect(names.sort()).toEqual(["Seiko Presage", "Seiko Turtle"]);
    expect(html).toContain('<link rel="canonical" href="https://shop.example.pk/brands/seiko"/>');

    const catalogue = await (await client.get("/products")).text();
    expect(catalogue).toMatch(/<a class="product-card__brand" href="\/brands\/seiko"[^>]*>seiko<\/a>/);
    expect(catalogue).toMatch(/<a class="product-card__brand" href="\/brands\/casio"[^>]*>Casio<\/a>/);
    const productPage = await (await client.get(`/products/${turtle}`)).text();
    expect(productPage).toMatch(/<a href="\/brands\/seiko"[^>]*>Seiko<\/a>/);
  });

  it("answers 404 'Brand not found' for a brand it does not have", async () => {
    const response = await client.get("/brands/rolex");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Brand not found");
  });
});

describe("migration 20261126000032_brands", () => {
  it("links the products a store already has to their brands, made from their texts", async () => {
    const db = server.database.db;
    // The schema as it was before brands (after the watch specifications), with products in it.
    await db.migrate.down({ name: "20261126000036_order_rules" });
    await db.migrate.down({ name: "20261126000035_parcel_outcome" });
    await db.migrate.down({ name: "20261126000032_brands" });
    expect(await db.schema.hasTable("brands")).toBe(false);
    const [turtle, presage, duro, plain] = await insertProducts(server, [
      { name: "Seiko Turtle", brand: "Seiko" },
      { name: "Seiko Presage", brand: " SEIKO" },
      { name: "Casio Duro", brand: "Casio" },
      { name: "Plain", brand: "" },
    ]);
    await db.migrate.latest();

    expect(await brandOf(turtle!)).toEqual({ name: "Seiko", slug: "seiko" });
    expect(await brandOf(presage!)).toEqual({ name: "Seiko", slug: "seiko" });
    expect(await brandOf(duro!)).toEqual({ name: "Casio", slug: "casio" });
    expect(await brandOf(plain!)).toEqual({ name: null, slug: null });
    expect(await db("brands").orderBy("slug").pluck("slug")).toEqual(["casio", "seiko"]);
    // The catalogue's brand filter and the brand's page find them.
    const filtered = await client.api("GET", "/products?brand=seiko");
    expect(filtered.body.data.map((product: { name: string }) => product.name).sort()).toEqual([
      "Seiko Presage",
      "Seiko Turtle",
    ]);
    expect(await (await client.get("/brands/casio")).text()).toContain('class="product-card__name">Casio Duro<');
  });
});
