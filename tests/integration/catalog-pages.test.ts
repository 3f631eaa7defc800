import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  await insertUser(server, { name: "Admin", email: "admin@catpages.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Shopper", email: "shopper@catpages.test", password: "shopperpass1" });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("products").del();
});

async function signedIn(email: string, password: string) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", { email, password, redirectTo: "" });
  expect(response.status).toBe(303);
  return client;
}

async function page(client: TestClient, path: string) {
  const response = await client.get(path);
  return { status: response.status, location: response.headers.get("location"), html: await response.text() };
}

/** Product names on a catalogue page, in the order shown. */
const cardNames = (html: string) => [...html.matchAll(/class="product-card__name">([^<]*)</g)].map((match) => match[1]);

describe("/products", () => {
  it("shows 12 cards a page with price in Rs., stock, and Add to Cart disabled at zero stock", async () => {
    await insertProducts(server, [
      { name: "Sold Out Classic", stock: 0, price: 45000 },
      ...Array.from({ length: 13 }, (_, index) => ({
        name: `Watch ${String(index).padStart(2, "0")}`,
        stock: index + 1,
        price: 12500,
      })),
    ]);
    const client = new TestClient(server.baseUrl);
    const first = await page(client, "/products");
    expect(first.status).toBe(200);
    expect(cardNames(first.html)).toHaveLength(12);
    expect(cardNames(first.html)[0]).toBe("Watch 12");
    expect(first.html).toContain("Rs. 12,500");
    expect(first.html).toContain("13 in stock");
    const second = await page(client, "/products?page=2");
    expect(cardNames(second.html)).toEqual(["Watch 00", "Sold Out Classic"]);
    expect(second.html).toContain("Out of stock");
    // Named as it reads ("Add to Cart"), then the watch, hidden from sight (WCAG 2.5.3).
    expect(second.html).toContain(
      '<button type="submit" class="button" disabled="">Add to Cart<span class="visually-hidden"> Sold Out Classic</span></button>',
    );
    expect(second.html).toContain('aria-current="page">2<');
  });

  it("keeps filters in the URL: category, sort, search, with page links that carry them", async () => {
    await insertProducts(server, [
      ...Array.from({ length: 30 }, (_, index) => ({
        name: `Lady ${String(index).padStart(2, "0")}`,
        category: "Women" as const,
        price: 1000 + index,
      })),
      { name: "Gent", category: "Men" },
    ]);
    const client = new TestClient(server.baseUrl);
    const women = await page(client, "/products?category=Women&sort=-price");
    expect(cardNames(women.html)[0]).toBe("Lady 29");
    expect(cardNames(women.html)).not.toContain("Gent");
    expect(women.html).toContain('href="/products?category=Women&amp;sort=-price&amp;page=2"');
    expect(women.html).toContain('<option value="Women" selected="">Women</option>');
    const third = await page(client, "/products?category=Women&sort=-price&page=3");
    expect(cardNames(third.html)).toEqual(["Lady 05", "Lady 04", "Lady 03", "Lady 02", "Lady 01", "Lady 00"]);
  });

  it("forgives unknown values, and a page past the end goes to the last page", async () => {
    await insertProducts(server, [{ name: "Only Watch" }]);
    const client = new TestClient(server.baseUrl);
    const odd = await page(client, "/products?category=Kids&sort=random&page=-4");
    expect(odd.status).toBe(200);
    expect(cardNames(odd.html)).toEqual(["Only Watch"]);
    const beyond = await page(client, "/products?page=9");
    expect(beyond.status).toBe(302);
    expect(beyond.location).toBe("/products");
  });

  it("says No products found, and searches literally (a % is a percent sign)", async () => {
    await insertProducts(server, [
      { name: "Half Price", description: "50% off" },
      { name: "Full Price", description: "No discount" },
    ]);
    const client = new TestClient(server.baseUrl);
    expect(cardNames((await page(client, "/products?search=%25")).html)).toEqual(["Half Price"]);
    const none = await page(client, "/products?search=zzzz");
    expect(none.html).toContain("No products found");
    expect(none.html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });
});

describe("/products/{id}", () => {
  it("shows the product with its brand in the title and schema.org Product data in PKR", async () => {
    const [id] = await insertProducts(server, [
      {
        name: "Carrera Chronograph",
        brand: "Tag Heuer",
        price: 650000,
        stock: 4,
        description: "A racing chronograph </script><b>bold</b>",
      },
    ]);
    const product = await page(new TestClient(server.baseUrl), `/products/${id}`);
    expect(product.status).toBe(200);
    expect(product.html).toContain("<title>Carrera Chronograph by Tag Heuer | Waqt</title>");
    expect(product.html).toContain(`<link rel="canonical" href="https://shop.example.pk/products/${id}"/>`);
    expect(product.html).toContain('max="4"');
    expect(product.html).toContain("Back to Products");
    const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(product.html)![1]!;
    const data = JSON.parse(jsonLd);
    expect(data).toMatchObject({
      "@type": "Product",
      name: "Carrera Chronograph",
      brand: { name: "Tag Heuer" },
      offers: { priceCurrency: "PKR", price: "650000.00", availability: "https://schema.org/InStock" },
    });
    // Text from the database never closes the script element or becomes markup.
    expect(jsonLd).not.toContain("</script>");
    expect(product.html).not.toContain("<b>bold</b>");
  });

  it("offers no quantity or Add to Cart when out of stock, and says OutOfStock to search engines", async () => {
    const [id] = await insertProducts(server, [{ name: "Gone Watch", stock: 0 }]);
    const product = await page(new TestClient(server.baseUrl), `/products/${id}`);
    expect(product.html).not.toContain('name="quantity"');
    expect(product.html).not.toContain(">Add to Cart<");
    expect(product.html).toContain("https://schema.org/OutOfStock");
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%27%20OR%201=1"])(
    "answers 404 Product not found for %s",
    async (id) => {
      const response = await page(new TestClient(server.baseUrl), `/products/${id}`);
      expect(response.status).toBe(404);
      expect(response.html).toContain("Product not found");
    },
  );
});

describe("Add to Cart", () => {
  it("sends a guest to log in and back to the page, adding nothing", async () => {
    const [id] = await insertProducts(server, [{ name: "Wanted" }]);
    const guest = new TestClient(server.baseUrl);
    const response = await guest.postForm("/cart", {
      intent: "add",
      productId: id!,
      quantity: "1",
      returnTo: "/products?page=1",
      then: "stay",
    });
    expect(response.status).toBe(303);
    // The log-in page says why it was sent there (reason=cart).
    expect(response.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/products?page=1")}&reason=cart`,
    );
    expect(await server.database.db("cart_items").count("* as count").first()).toEqual({ count: 0 });
  });

  it("adds one unit from the list and returns there with the badge counting it", async () => {
    const [id] = await insertProducts(server, [{ name: "Listed", stock: 3 }]);
    const shopper = await signedIn("shopper@catpages.test", "shopperpass1");
    await shopper.postForm("/cart", { intent: "clear" });
    const response = await shopper.postForm("/cart", {
      intent: "add",
      productId: id!,
      quantity: "1",
      returnTo: "/products?sort=name",
      then: "stay",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/products?sort=name");
    const back = await page(shopper, "/products?sort=name");
    expect(back.html).toContain("Listed added to your cart");
    expect(back.html).toMatch(/data-testid="cart-badge">1<\/span><span class="visually-hidden"> item<\/span>/);
  });

  it("adds the chosen quantity from the product page and goes to the cart; never beyond stock", async () => {
    const [id] = await insertProducts(server, [{ name: "Limited", stock: 3, price: 1000.5 }]);
    const shopper = await signedIn("shopper@catpages.test", "shopperpass1");
    await shopper.postForm("/cart", { intent: "clear" });
    const added = await shopper.postForm("/cart", {
      intent: "add",
      productId: id!,
      quantity: "2",
      returnTo: `/products/${id}`,
      then: "cart",
    });
    expect(added.headers.get("location")).toBe("/cart");
    const cart = await page(shopper, "/cart");
    expect(cart.html).toContain("Limited");
    expect(cart.html).toContain("Rs. 1,000.50 each");
    expect(cart.html).toContain("Rs. 2,001<");

    const tooMany = await shopper.postForm("/cart", {
      intent: "add",
      productId: id!,
      quantity: "2",
      returnTo: `/products/${id}`,
      then: "cart",
    });
    expect(tooMany.status).toBe(303);
    expect((await page(shopper, "/cart")).html).toContain("Not enough stock available");
    const line = await server.database.db("cart_items").where({ productId: id }).first();
    expect(line.quantity).toBe(2);
  });
});

describe("admin products", () => {
  const product = {
    name: "Admin Made",
    brand: "Seiko",
    description: "Made in a test",
    price: "45000.50",
    stock: "7",
    category: "Women",
    imageUrl: "/images/placeholder-watch.svg",
  };

  it("sends a guest to log in and a customer home", async () => {
    const guest = await page(new TestClient(server.baseUrl), "/admin/products");
    expect(guest.status).toBe(302);
    expect(guest.location).toBe("/login?redirectTo=%2Fadmin%2Fproducts");
    const customer = await signedIn("shopper@catpages.test", "shopperpass1");
    const refused = await customer.postForm("/admin/products/new", product);
    expect([302, 303]).toContain(refused.status);
    expect(refused.headers.get("location")).toBe("/");
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 0 });
  });

  it("shows each problem beside its field, keeps the input, and stores nothing", async () => {
    const admin = await signedIn("admin@catpages.test", "adminpass1");
    const response = await admin.postForm("/admin/products/new", {
      ...product,
      name: "",
      price: "12.345",
      stock: "-1",
      category: "Kids",
      imageUrl: "ftp://example.com/x.png",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('id="field-name-error" role="alert">Name is required<');
    expect(html).toContain("Price can have at most two decimals");
    expect(html).toContain("Stock cannot be negative");
    expect(html).toContain("Category must be Men or Women");
    expect(html).toContain("Image URL must be a web address");
    expect(html).toContain('value="12.345"');
    expect(html).toContain("Made in a test</textarea>");
    expect(await server.database.db("products").count("* as count").first()).toEqual({ count: 0 });
  });

  it("adds, edits and deletes a product, each seen in the catalogue at once", async () => {
    await insertProducts(server, [{ name: "Older Stock" }]);
    const admin = await signedIn("admin@catpages.test", "adminpass1");
    const created = await admin.postForm("/admin/products/new", product);
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe("/admin/products");
    expect((await page(admin, "/admin/products")).html).toContain("Product created successfully!");
    expect(cardNames((await page(admin, "/products")).html)).toEqual(["Admin Made", "Older Stock"]);

    const { id } = await server.database.db("products").where({ name: "Admin Made" }).first();
    const edited = await admin.postForm(`/admin/products/${id}/edit`, {
      ...product,
      name: "Admin Edited",
      price: "39999",
      stock: "0",
    });
    expect(edited.headers.get("location")).toBe("/admin/products");
    expect((await page(admin, "/admin/products")).html).toContain("Product updated successfully!");
    const shown = await page(admin, `/products/${id}`);
    expect(shown.html).toContain("Admin Edited");
    expect(shown.html).toContain("Rs. 39,999");
    expect(shown.html).toContain("Out of stock");

    const confirm = await page(admin, `/admin/products/${id}/delete`);
    expect(confirm.html).toContain("Are you sure you want to delete this product?");
    const deleted = await admin.postForm(`/admin/products/${id}/delete`, {});
    expect(deleted.headers.get("location")).toBe("/admin/products");
    expect((await page(admin, "/admin/products")).html).toContain("Product deleted successfully!");
    expect((await page(admin, `/products/${id}`)).status).toBe(404);
    const again = await admin.postForm(`/admin/products/${id}/delete`, {});
    expect(again.status).toBe(404);
  });

  it("keeps admin pages out of search engines", async () => {
    const admin = await signedIn("admin@catpages.test", "adminpass1");
    for (const path of ["/admin/products", "/admin/products/new"]) {
      expect((await page(admin, path)).html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
  });
});

describe("what search engines read", () => {
  it("lists the home page, the catalogue and every product in /sitemap.xml", async () => {
    const ids = await insertProducts(server, [{ name: "One" }, { name: "Two" }]);
    const response = await new TestClient(server.baseUrl).get("/sitemap.xml");
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toContain("<loc>https://shop.example.pk/</loc>");
    expect(xml).toContain("<loc>https://shop.example.pk/products?category=Men</loc>");
    for (const id of ids) expect(xml).toContain(`<loc>https://shop.example.pk/products/${id}</loc>`);
  });

  it("becomes a sitemap index of files of at most 50,000 addresses when the catalogue is larger", async () => {
    await server.database.db.raw(`
      INSERT INTO products (name, description, price, category, image_url, stock)
      SELECT 'Bulk ' || n, 'Bulk watch', 1000, 'Men', '', 1 FROM generate_series(1, 50001) AS n`);
    const client = new TestClient(server.baseUrl);
    const index = await (await client.get("/sitemap.xml")).text();
    expect(index).toContain("<sitemapindex");
    expect(index).toContain("<loc>https://shop.example.pk/sitemaps/pages.xml</loc>");
    expect(index).toContain("<loc>https://shop.example.pk/sitemaps/products-2.xml</loc>");
    expect(index).not.toContain("products-3.xml");
    const first = await (await client.get("/sitemaps/products-1.xml")).text();
    expect(first.match(/<url>/g)).toHaveLength(50_000);
    const second = await (await client.get("/sitemaps/products-2.xml")).text();
    expect(second.match(/<url>/g)).toHaveLength(1);
    expect((await client.get("/sitemaps/products-3.xml")).status).toBe(404);
    expect(await (await client.get("/sitemaps/pages.xml")).text()).toContain(
      "<loc>https://shop.example.pk/products</loc>",
    );
  });

  it("disallows admin, cart, checkout and account pages in /robots.txt", async () => {
    const text = await (await new TestClient(server.baseUrl).get("/robots.txt")).text();
    for (const path of ["/admin", "/cart", "/checkout", "/my-orders", "/profile"])
      expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain("Sitemap: https://shop.example.pk/sitemap.xml");
  });
});
