import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@specs.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@specs.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("products").del();
});

const watch = {
  name: "Tissot PRX Powermatic 80",
  description: "Swiss automatic in a 40 mm steel case.",
  price: 245000,
  category: "Men",
  imageUrl: "/images/watches/prx.svg",
  stock: 2,
  brand: "Tissot",
};

const prxSpecs = {
  reference: "T137.407.11.041.00",
  movement: "Automatic",
  calibre: "Powermatic 80.111",
  caseDiameterMm: 40,
  caseThicknessMm: 10.9,
  caseMaterial: "Stainless steel",
  waterResistanceM: 100,
  crystal: "Sapphire",
  strapMaterial: "Stainless steel",
  strapColour: "Silver",
  dialColour: "Blue",
  lugWidthMm: 12,
  features: ["date", "luminous hands"],
  warrantyMonths: 24,
  warrantyKind: "international",
  boxAndPapers: true,
  certificateOfAuthenticity: false,
};

const noSpecs = {
  reference: null,
  movement: null,
  calibre: null,
  caseDiameterMm: null,
  caseThicknessMm: null,
  caseMaterial: null,
  waterResistanceM: null,
  crystal: null,
  strapMaterial: null,
  strapColour: null,
  dialColour: null,
  lugWidthMm: null,
  features: [],
  warrantyMonths: null,
  warrantyKind: null,
  boxAndPapers: null,
  certificateOfAuthenticity: null,
};

/** Each specification given wrong, with the message the API and the form answer. */
const invalidSpecs: [string, unknown, string][] = [
  ["reference", "R".repeat(51), "Reference must be at most 50 characters"],
  ["movement", "Clockwork", "Movement must be one of Quartz, Automatic, Manual winding, Solar, Kinetic, Smart"],
  ["calibre", "C".repeat(51), "Calibre must be at most 50 characters"],
  ["caseDiameterMm", 41.25, "Case diameter can have at most one decimal"],
  ["caseThicknessMm", 31, "Case thickness must be between 1 and 30 mm"],
  ["caseMaterial", "M".repeat(51), "Case material must be at most 50 characters"],
  ["waterResistanceM", -10, "Water resistance must be between 0 and 12000 m"],
  ["crystal", "Glass", "Crystal must be one of Mineral, Sapphire, Hardlex, Acrylic"],
  ["strapMaterial", "S".repeat(51), "Strap or bracelet must be at most 50 characters"],
  ["strapColour", "C".repeat(31), "Strap colour must be at most 30 characters"],
  ["dialColour", "D".repeat(31), "Dial colour must be at most 30 characters"],
  ["lugWidthMm", 20.5, "Lug width must be a whole number"],
  [
    "features",
    ["date", "tourbillon"],
    "Features must be among chronograph, date, day-date, GMT, moon phase, alarm, luminous hands",
  ],
  ["warrantyMonths", 121, "Warranty must be between 0 and 120 months"],
  ["warrantyKind", "lifetime", "Warranty kind must be one of international, local, store"],
  ["boxAndPapers", "maybe", "Box and papers must be yes or no"],
  ["certificateOfAuthenticity", "perhaps", "Certificate of authenticity must be yes or no"],
];

describe("specifications in the API", () => {
  it("creates a watch with its specifications and answers them under specs; a watch without has them empty", async () => {
    const created = await client.api("POST", "/products", { body: { ...watch, specs: prxSpecs }, token: adminToken });
    expect(created.status).toBe(201);
    expect(created.body.data.specs).toEqual({ ...prxSpecs });
    const fetched = await client.api("GET", `/products/${created.body.data._id}`);
    expect(fetched.body.data.specs).toEqual(prxSpecs);

    const plain = await client.api("POST", "/products", { body: { ...watch, name: "Plain" }, token: adminToken });
    expect(plain.body.data.specs).toEqual(noSpecs);
    const listed = await client.api("GET", "/products");
    expect(listed.body.data.map((product: { specs: unknown }) => product.specs)).toEqual([noSpecs, prxSpecs]);
  });

  it("keeps the specifications on a PUT without specs (an older client) and replaces them on a PUT with", async () => {
    const id = (await client.api("POST", "/products", { body: { ...watch, specs: prxSpecs }, token: adminToken })).body
      .data._id;
    const renamed = await client.api("PUT", `/products/${id}`, { body: { ...watch, name: "PRX" }, token: adminToken });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "PRX", specs: prxSpecs });
    const replaced = await client.api("PUT", `/products/${id}`, {
      body: { ...watch, specs: { movement: "Quartz", caseDiameterMm: "39.5", features: [] } },
      token: adminToken,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.specs).toEqual({ ...noSpecs, movement: "Quartz", caseDiameterMm: 39.5 });
  });

  it("refuses each invalid specification with its own message (400), storing and changing nothing", async () => {
    const [id] = await insertProducts(server, [{ name: "Unchanged", movement: "Quartz" }]);
    for (const [field, value, message] of invalidSpecs) {
      const specs = { ...prxSpecs, [field]: value };
      const created = await client.api("POST", "/products", { body: { ...watch, specs }, token: adminToken });
      expect(created.status, field).toBe(400);
      expect(created.body.errors, field).toEqual([{ field: `specs.${field}`, message }]);
      const updated = await client.api("PUT", `/products/${id}`, { body: { ...watch, specs }, token: adminToken });
      expect(updated.status, field).toBe(400);
    }
    const rows = await server.database.db("products").select("name", "movement");
    expect(rows).toEqual([{ name: "Unchanged", movement: "Quartz" }]);
  });

  it("has the database refuse a value outside the lists, whoever writes it", async () => {
    const [id] = await insertProducts(server, [{ name: "Guarded" }]);
    for (const [column, value] of [
      ["movement", "Clockwork"],
      ["crystal", "Glass"],
      ["warranty_kind", "lifetime"],
      ["case_diameter_mm", 80],
      ["water_resistance_m", -1],
    ] as const) {
      await expect(
        server.database.db.raw(`UPDATE products SET ${column} = ? WHERE id = ?`, [value, id]),
        column,
      ).rejects.toThrow(/violates check constraint/);
    }
    await expect(
      server.database.db.raw("UPDATE products SET features = ARRAY['date', 'tourbillon'] WHERE id = ?", [id]),
    ).rejects.toThrow(/violates check constraint/);
  });
});

async function signedInAdmin() {
  const admin = new TestClient(server.baseUrl);
  const response = await admin.postForm("/login", {
    email: "admin@specs.test",
    password: "adminpass1",
    redirectTo: "",
  });
  expect(response.status).toBe(303);
  return admin;
}

const formProduct = {
  name: "Admin Made",
  brand: "Tissot",
  description: "Made in a test",
  price: "245000",
  stock: "2",
  category: "Men",
  imageUrl: "/images/watches/prx.svg",
};

describe("specifications on the admin's product form", () => {
  it("saves what is filled in, features as checkboxes, and shows them back on the edit form", async () => {
    const admin = await signedInAdmin();
    const created = await admin.postForm("/admin/products/new", {
      ...formProduct,
      reference: "T137.407.11.041.00",
      movement: "Automatic",
      caseDiameterMm: "40",
      waterResistanceM: "100",
      crystal: "Sapphire",
      boxAndPapers: "true",
      certificateOfAuthenticity: "",
      "feature:date": "on",
      "feature:GMT": "on",
    });
    expect(created.status).toBe(303);
    const row = await server.database.db("products").where({ name: "Admin Made" }).first();
    expect(row).toMatchObject({
      reference: "T137.407.11.041.00",
      movement: "Automatic",
      caseDiameterMm: 40,
      waterResistanceM: 100,
      crystal: "Sapphire",
      boxAndPapers: true,
      certificateOfAuthenticity: null,
      calibre: null,
      features: ["date", "GMT"],
    });
    const form = await (await admin.get(`/admin/products/${row.id}/edit`)).text();
    expect(form).toContain('value="T137.407.11.041.00"');
    expect(form).toMatch(/<option value="Automatic" selected="">Automatic<\/option>/);
    expect(form).toMatch(/name="feature:GMT" checked=""/);
    expect(form).not.toMatch(/name="feature:alarm" checked=""/);
  });

  it("shows each problem beside its specification, keeps the input, and stores nothing", async () => {
    const admin = await signedInAdmin();
    const response = await admin.postForm("/admin/products/new", {
      ...formProduct,
      movement: "Clockwork",
      caseDiameterMm: "41.25",
      lugWidthMm: "abc",
      warrantyMonths: "121",
      reference: "R".repeat(51),
      "feature:date": "on",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('id="field-movement-error" role="alert">Movement must be one of');
    expect(html).toContain('id="field-caseDiameterMm-error" role="alert">Case diameter can have at most one decimal<');
    expect(html).toContain('id="field-lugWidthMm-error" role="alert">Lug width must be a number<');
    expect(html).toContain('id="field-warrantyMonths-error" role="alert">Warranty must be between 0 and 120 months<');
    expect(html).toContain('id="field-reference-error" role="alert">Reference must be at most 50 characters<');
    expect(html).toContain('value="41.25"');
    expect(html).toMatch(/name="feature:date" checked=""/);
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 0 });
  });
});

describe("specifications on the product page", () => {
  it("shows a table of only what is filled in, and carries it in the JSON-LD as additionalProperty", async () => {
    const id = (
      await client.api("POST", "/products", {
        body: {
          ...watch,
          specs: {
            ...noSpecs,
            movement: "Automatic",
            caseDiameterMm: 40,
            waterResistanceM: 100,
            features: ["date", "GMT"],
            boxAndPapers: false,
          },
        },
        token: adminToken,
      })
    ).body.data._id;
    const html = await (await client.get(`/products/${id}`)).text();
    const table = html.match(/<table class="specs__table">([\s\S]*?)<\/table>/)?.[1] ?? "";
    const rows = [...table.matchAll(/<th scope="row">([^<]*)<\/th><td>([^<]*)<\/td>/g)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(rows).toEqual([
      ["Movement", "Automatic"],
      ["Case diameter", "40 mm"],
      ["Water resistance", "100 m"],
      ["Features", "date, GMT"],
      ["Box and papers", "No"],
    ]);
    const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]!);
    expect(jsonLd.additionalProperty).toEqual([
      { "@type": "PropertyValue", name: "Movement", value: "Automatic" },
      { "@type": "PropertyValue", name: "Case diameter", value: 40, unitText: "mm" },
      { "@type": "PropertyValue", name: "Water resistance", value: 100, unitText: "m" },
      { "@type": "PropertyValue", name: "Features", value: "date, GMT" },
      { "@type": "PropertyValue", name: "Box and papers", value: "No" },
    ]);

    const [plain] = await insertProducts(server, [{ name: "Plain" }]);
    const plainHtml = await (await client.get(`/products/${plain}`)).text();
    expect(plainHtml).not.toContain("Specifications");
    expect(plainHtml).not.toContain("additionalProperty");
  });
});
