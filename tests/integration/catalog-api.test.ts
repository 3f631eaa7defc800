import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@catalog.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Customer", email: "customer@catalog.test", password: "custpass1" });
  adminToken = await apiToken(client, "admin@catalog.test", "adminpass1");
  customerToken = await apiToken(client, "customer@catalog.test", "custpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("products").del();
});

const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((product) => product.name);

const validProduct = {
  name: "Seamaster Diver 300M",
  description: "A diver's watch with a ceramic bezel.",
  price: 1250000.5,
  category: "Men",
  imageUrl: "/images/watches/seamaster.svg",
  stock: 3,
  brand: "Omega",
};

describe("GET /products", () => {
  it("pages with the API's defaults: page 1, limit 10, newest first, and totals", async () => {
    await insertProducts(
      server,
      Array.from({ length: 23 }, (_, index) => ({ name: `Watch ${String(index).padStart(2, "0")}` })),
    );
    const first = await client.api("GET", "/products");
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.pagination).toEqual({ page: 1, limit: 10, total: 23, totalPages: 3 });
    expect(names(first)[0]).toBe("Watch 22");
    expect(first.body.data).toHaveLength(10);

    const last = await client.api("GET", "/products?page=3&limit=10");
    expect(names(last)).toEqual(["Watch 02", "Watch 01", "Watch 00"]);
    const beyond = await client.api("GET", "/products?page=9");
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination.total).toBe(23);
  });

  it("pages through every sort and category with each product exactly once, ties and deep pages alike", async () => {
    await insertProducts(
      server,
      Array.from({ length: 25 }, (_, index) => ({
        // Three prices, names that differ in case, two categories and one moment shared: ties everywhere.
        name: index % 2 ? `watch ${index % 7}` : `Watch ${index % 5}`,
        price: [500, 1500, 2500][index % 3],
        category: index % 4 === 0 ? "Women" : "Men",
        ...(index >= 20 ? { createdAt: new Date(Date.UTC(2026, 5, 1)) } : {}),
      })),
    );
    const ids = (response: { body: { data: { _id: string }[] } }) => response.body.data.map((product) => product._id);
    for (const sort of ["-createdAt", "createdAt", "price", "-price", "name", "-name"]) {
      for (const category of ["", "Men", "Women"]) {
        const query = `sort=${encodeURIComponent(sort)}&category=${category}`;
        const whole = await client.api("GET", `/products?${query}&limit=1000`);
        const paged: string[] = [];
        for (let page = 1; page <= Math.ceil(whole.body.pagination.total / 4) + 1; page += 1) {
          const response = await client.api("GET", `/products?${query}&limit=4&page=${page}`);
          expect(response.body.pagination.total).toBe(whole.body.pagination.total);
          paged.push(...ids(response));
        }
        expect(paged, `${sort} ${category || "all"}`).toEqual(ids(whole));
      }
    }
  });

  it("counts exactly after products are added, moved to the other category and deleted", async () => {
    await insertProducts(server, [{ name: "One" }, { name: "Two", category: "Women" }]);
    const totals = async () =>
      Promise.all(
        ["", "Men", "Women"].map(
          async (category) => (await client.api("GET", `/products?category=${category}`)).body.pagination.total,
        ),
      );
    expect(await totals()).toEqual([2, 1, 1]);
    const created = await client.api("POST", "/products", { token: adminToken, body: validProduct });
    expect(created.status).toBe(201);
    expect(await totals()).toEqual([3, 2, 1]);
    const id = created.body.data._id;
    await client.api("PUT", `/products/${id}`, { token: adminToken, body: { ...validProduct, category: "Women" } });
    expect(await totals()).toEqual([3, 1, 2]);
    expect((await client.api("DELETE", `/products/${id}`, { token: adminToken })).status).toBe(200);
    expect(await totals()).toEqual([2, 1, 1]);
  });

  it("sends every product field, money as a number and imageUrl absolute", async () => {
    await insertProducts(server, [{ ...validProduct, price: 1250000.5, category: "Men" }]);
    const [product] = (await client.api("GET", "/products")).body.data;
    expect(product).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Seamaster Diver 300M",
      description: "A diver's watch with a ceramic bezel.",
      price: 1250000.5,
      category: "Men",
      imageUrl: "https://shop.example.pk/images/watches/seamaster.svg",
      images: [],
      imagePlaceholder: null,
      stock: 3,
      reorderLevel: 2,
      weightGrams: null,
      brand: "Omega",
      specs: expect.objectContaining({ movement: null, caseDiameterMm: null, features: [] }),
      rating: null,
      reviewCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it("sorts by each of the six sorts, ties broken the same way every time", async () => {
    await insertProducts(server, [
      { name: "Beta", price: 300 },
      { name: "alpha", price: 100 },
      { name: "Gamma", price: 200 },
    ]);
    const sorted = async (sort: string) => names(await client.api("GET", `/products?sort=${encodeURIComponent(sort)}`));
    expect(await sorted("-createdAt")).toEqual(["Gamma", "alpha", "Beta"]);
    expect(await sorted("createdAt")).toEqual(["Beta", "alpha", "Gamma"]);
    expect(await sorted("price")).toEqual(["alpha", "Gamma", "Beta"]);
    expect(await sorted("-price")).toEqual(["Beta", "Gamma", "alpha"]);
    expect(await sorted("name")).toEqual(["alpha", "Beta", "Gamma"]);
    expect(await sorted("-name")).toEqual(["Gamma", "Beta", "alpha"]);
  });

  it("filters by category, and an empty value means no filter (as existing clients send it)", async () => {
    await insertProducts(server, [
      { name: "His", category: "Men" },
      { name: "Hers", category: "Women" },
    ]);
    expect(names(await client.api("GET", "/products?category=Women"))).toEqual(["Hers"]);
    const everything = await client.api("GET", "/products?page=1&limit=12&search=&category=&sort=-createdAt");
    expect(everything.status).toBe(200);
    expect(names(everything)).toEqual(["Hers", "His"]);
  });

  it("searches name, brand and description without regard to case, best matches first", async () => {
    await insertProducts(server, [
      { name: "Field Watch", description: "Rugged, like a Submariner's little brother", brand: "Hamilton" },
      { name: "Submariner Date", description: "The classic diver", brand: "Rolex" },
      { name: "Datejust", description: "Dress watch", brand: "ROLEX" },
      { name: "Speedmaster", description: "Moonwatch", brand: "Omega" },
    ]);
    const rolex = await client.api("GET", "/products?search=rolex");
    expect(names(rolex).sort()).toEqual(["Datejust", "Submariner Date"]);
    // "sub" is part of a word: found through the trigram index, the name above the description.
    expect(names(await client.api("GET", "/products?search=SUB"))).toEqual(["Submariner Date", "Field Watch"]);
    expect(names(await client.api("GET", "/products?search=moonwatch"))).toEqual(["Speedmaster"]);
    // An explicit sort wins over relevance.
    expect(names(await client.api("GET", "/products?search=sub&sort=name"))).toEqual([
      "Field Watch",
      "Submariner Date",
    ]);
  });

  it("takes % and _ in a search literally, and a search is never SQL", async () => {
    await insertProducts(server, [
      { name: "Discount Special", description: "Save 10% today" },
      { name: "Model_X", description: "Underscored" },
      { name: "Plain", description: "Nothing special" },
    ]);
    expect(names(await client.api("GET", "/products?search=%25"))).toEqual(["Discount Special"]);
    expect(names(await client.api("GET", "/products?search=_"))).toEqual(["Model_X"]);
    expect(
      names(await client.api("GET", `/products?search=${encodeURIComponent("'; DROP TABLE products; --")}`)),
    ).toEqual([]);
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 3 });
  });

  it.each([
    ["page=0", "Page must be at least 1"],
    ["page=abc", "Page must be a number"],
    ["limit=0", "Limit must be between 1 and 1000"],
    ["limit=1001", "Limit must be between 1 and 1000"],
    ["limit=2.5", "Limit must be a whole number"],
    ["category=Kids", "Category must be Men or Women"],
    ["sort=price;drop", "Sort must be one of -createdAt, createdAt, price, -price, name, -name"],
    [`search=${"x".repeat(101)}`, "Search must be at most 100 characters"],
  ])("answers 400 with the envelope for %s", async (query, message) => {
    const response = await client.api("GET", `/products?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toBe(message);
    expect(response.body.errors[0].message).toBe(message);
  });
});

describe("GET /products/:id", () => {
  it("answers the product, and 404 'Product not found' for an unknown or malformed id", async () => {
    const [id] = await insertProducts(server, [{ name: "Only One" }]);
    const found = await client.api("GET", `/products/${id}`);
    expect(found.status).toBe(200);
    expect(found.body.data.name).toBe("Only One");
    for (const missing of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const response = await client.api("GET", `/products/${missing}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: "Product not found" });
    }
  });
});

describe("writing products (admins only)", () => {
  it("refuses a guest with 401 and a customer with 403, changing nothing", async () => {
    const [id] = await insertProducts(server, [{ name: "Guarded" }]);
    const calls = [
      ["POST", "/products"],
      ["PUT", `/products/${id}`],
      ["DELETE", `/products/${id}`],
    ] as const;
    for (const [method, path] of calls) {
      const guest = await client.api(method, path, { body: validProduct });
      expect(guest.status).toBe(401);
      const customer = await client.api(method, path, { body: validProduct, token: customerToken });
      expect(customer.status).toBe(403);
      expect(customer.body).toEqual({ success: false, message: "Not authorized as an admin" });
    }
    expect(names(await client.api("GET", "/products"))).toEqual(["Guarded"]);
  });

  it("creates a product (201) that comes first in the catalogue at once", async () => {
    await insertProducts(server, [{ name: "Older" }]);
    const created = await client.api("POST", "/products", { body: validProduct, token: adminToken });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      ...validProduct,
      imageUrl: "https://shop.example.pk/images/watches/seamaster.svg",
    });
    expect(names(await client.api("GET", "/products"))).toEqual(["Seamaster Diver 300M", "Older"]);
  });

  it("accepts a product without a brand and an https image", async () => {
    const { brand: _brand, ...withoutBrand } = validProduct;
    const created = await client.api("POST", "/products", {
      body: { ...withoutBrand, imageUrl: "https://cdn.example.com/w.jpg" },
      token: adminToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.brand).toBe("");
    expect(created.body.data.imageUrl).toBe("https://cdn.example.com/w.jpg");
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ description: "  " }, "description", "Description is required"],
    [{ price: "abc" }, "price", "Price must be a number"],
    [{ price: -1 }, "price", "Price cannot be negative"],
    [{ price: 10.555 }, "price", "Price can have at most two decimals"],
    [{ price: 1e-9 }, "price", "Price can have at most two decimals"],
    [{ stock: 1.5 }, "stock", "Stock must be a whole number"],
    [{ stock: -2 }, "stock", "Stock cannot be negative"],
    [{ category: "Kids" }, "category", "Category must be Men or Women"],
    [
      { imageUrl: "javascript:alert(1)" },
      "imageUrl",
      "Image URL must be a web address (http:// or https://) or a site path under /images",
    ],
    [
      { imageUrl: "/etc/passwd" },
      "imageUrl",
      "Image URL must be a web address (http:// or https://) or a site path under /images",
    ],
  ])("refuses %o with 400 naming the field, and stores nothing", async (change, field, message) => {
    const response = await client.api("POST", "/products", { body: { ...validProduct, ...change }, token: adminToken });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(response.body.errors).toContainEqual({ field, message });
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 0 });
  });

  it("updates every field; price and stock changes show at once", async () => {
    const [id] = await insertProducts(server, [{ name: "Before", price: 100, stock: 1 }]);
    const updated = await client.api("PUT", `/products/${id}`, {
      body: { ...validProduct, name: "After", price: 99.99, stock: 0 },
      token: adminToken,
    });
    expect(updated.status).toBe(200);
    const fetched = (await client.api("GET", `/products/${id}`)).body.data;
    expect(fetched).toMatchObject({ name: "After", price: 99.99, stock: 0, brand: "Omega" });
    expect(Date.parse(fetched.updatedAt)).toBeGreaterThan(Date.parse(fetched.createdAt));
  });

  it("keeps a reorder level for the stock report: 2 unless given, unchanged by an update without it", async () => {
    const created = await client.api("POST", "/products", { body: validProduct, token: adminToken });
    expect(created.body.data.reorderLevel).toBe(2);
    const id = created.body.data._id;
    const set = await client.api("PUT", `/products/${id}`, {
      body: { ...validProduct, reorderLevel: 5 },
      token: adminToken,
    });
    expect(set.body.data.reorderLevel).toBe(5);
    const kept = await client.api("PUT", `/products/${id}`, { body: { ...validProduct, stock: 9 }, token: adminToken });
    expect(kept.body.data).toMatchObject({ stock: 9, reorderLevel: 5 });
    const refused = await client.api("PUT", `/products/${id}`, {
      body: { ...validProduct, reorderLevel: -1 },
      token: adminToken,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: "reorderLevel", message: "Reorder level cannot be negative" }]);
    expect((await client.api("GET", `/products/${id}`)).body.data.reorderLevel).toBe(5);
  });

  it("refuses an invalid update, leaving the product as it was", async () => {
    const [id] = await insertProducts(server, [{ name: "Unchanged", price: 100 }]);
    const response = await client.api("PUT", `/products/${id}`, {
      body: { ...validProduct, price: -5 },
      token: adminToken,
    });
    expect(response.status).toBe(400);
    expect((await client.api("GET", `/products/${id}`)).body.data).toMatchObject({ name: "Unchanged", price: 100 });
  });

  it("deletes a product; a second delete or an update of it is 404", async () => {
    const [id] = await insertProducts(server, [{ name: "Doomed" }]);
    const deleted = await client.api("DELETE", `/products/${id}`, { token: adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "Product deleted successfully", data: null });
    expect((await client.api("DELETE", `/products/${id}`, { token: adminToken })).status).toBe(404);
    expect((await client.api("PUT", `/products/${id}`, { body: validProduct, token: adminToken })).status).toBe(404);
    expect((await client.api("GET", `/products/${id}`)).status).toBe(404);
  });
});

describe("input of the wrong shape", () => {
  it("answers 400, never 500, when a text field arrives as an object or a list", async () => {
    for (const name of [{ $gt: "" }, ["a", "b"]]) {
      const response = await client.api("POST", "/products", { body: { ...validProduct, name }, token: adminToken });
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
    }
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 0 });
  });
});
