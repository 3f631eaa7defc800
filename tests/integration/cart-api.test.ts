import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let customerId: string;
let customerToken: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://shop.example.pk" });
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@cart.test", password: "adminpass1", role: "admin" });
  customerId = await insertUser(server, { name: "Customer", email: "customer@cart.test", password: "custpass1" });
  await insertUser(server, { name: "Other", email: "other@cart.test", password: "otherpass1" });
  adminToken = await apiToken(client, "admin@cart.test", "adminpass1");
  customerToken = await apiToken(client, "customer@cart.test", "custpass1");
  otherToken = await apiToken(client, "other@cart.test", "otherpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  // Carts (with their lines and notices) and products start empty in every test.
  await server.database.db("carts").del();
  await server.database.db("products").del();
});

/** A fresh customer with a token; a cheap bcrypt cost keeps the test quick (log-in accepts any cost). */
let shopperCount = 0;
async function newShopper(): Promise<{ id: string; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@cart.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Shopper ${shopperCount}`, email, passwordHash: await hashPassword("shopperpass1", 4) })
    .returning("id");
  return { id: row.id, token: await apiToken(client, email, "shopperpass1") };
}

const add = (productId: string, quantity: number, token = customerToken) =>
  client.api("POST", "/cart", { body: { productId, quantity }, token });
const setQuantity = (productId: string, quantity: number, token = customerToken) =>
  client.api("PUT", "/cart", { body: { productId, quantity }, token });
const getCart = (token = customerToken) => client.api("GET", "/cart", { token });
const lines = (response: { body: { data: { cart: { items: { product: { name: string }; quantity: number }[] } } } }) =>
  response.body.data.cart.items.map((line) => [line.product.name, line.quantity]);

describe("GET /cart", () => {
  it("gives a new shopper an empty cart with total 0", async () => {
    const response = await getCart();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: "OK",
      data: {
        cart: { _id: null, user: customerId, items: [], createdAt: null, updatedAt: null },
        total: 0,
      },
    });
  });
});

describe("POST /cart", () => {
  it("adds a product as a line with its current details, absolute image and total", async () => {
    const [id] = await insertProducts(server, [
      { name: "Seamaster", price: 1250.5, stock: 4, imageUrl: "/images/watches/seamaster.svg" },
    ]);
    const response = await add(id!, 2);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: "Item added to cart",
      data: {
        cart: {
          _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          user: customerId,
          items: [
            {
              product: {
                _id: id,
                name: "Seamaster",
                price: 1250.5,
                imageUrl: "https://shop.example.pk/images/watches/seamaster.svg",
                images: [],
                stock: 4,
              },
              quantity: 2,
            },
          ],
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
        total: 2501,
      },
    });
    // The cart is kept: the next GET shows the same.
    expect((await getCart()).body.data).toEqual(response.body.data);
  });

  it("adds to the existing line instead of making a second one, and keeps lines in the order added", async () => {
    const [first, second] = await insertProducts(server, [
      { name: "First", stock: 10 },
      { name: "Second", stock: 10 },
    ]);
    await add(first!, 1);
    await add(second!, 2);
    const response = await add(first!, 3);
    expect(response.status).toBe(200);
    expect(lines(response)).toEqual([
      ["First", 4],
      ["Second", 2],
    ]);
  });

  it("sends imageUrl absolute: site paths get PUBLIC_URL, https images are sent as they are", async () => {
    const [local, remote] = await insertProducts(server, [
      { name: "Local", imageUrl: "/images/local.svg" },
      { name: "Remote", imageUrl: "https://cdn.example.com/remote.jpg" },
    ]);
    await add(local!, 1);
    const response = await add(remote!, 1);
    expect(
      response.body.data.cart.items.map((line: { product: { imageUrl: string } }) => line.product.imageUrl),
    ).toEqual(["https://shop.example.pk/images/local.svg", "https://cdn.example.com/remote.jpg"]);
  });

  it("keeps each shopper's cart their own", async () => {
    const [id] = await insertProducts(server, [{ name: "Mine" }]);
    await add(id!, 1);
    const other = await getCart(otherToken);
    expect(other.body.data.cart.items).toEqual([]);
    expect(other.body.data.total).toBe(0);
  });
});

describe("PUT /cart", () => {
  it("sets the quantity of a line (rather than adding to it)", async () => {
    const [id] = await insertProducts(server, [{ name: "Settable", price: 100, stock: 10 }]);
    await add(id!, 5);
    const lower = await setQuantity(id!, 2);
    expect(lower.status).toBe(200);
    expect(lower.body.message).toBe("Cart updated");
    expect(lines(lower)).toEqual([["Settable", 2]]);
    expect(lower.body.data.total).toBe(200);
    const higher = await setQuantity(id!, 7);
    expect(lines(higher)).toEqual([["Settable", 7]]);
    expect(higher.body.data.total).toBe(700);
  });

  it("answers 404 for a product that is not in the cart, adding nothing", async () => {
    const [inCart, notInCart] = await insertProducts(server, [{ name: "In" }, { name: "Out" }]);
    await add(inCart!, 1);
    const response = await setQuantity(notInCart!, 1);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: "Item not found in cart" });
    expect(lines(await getCart())).toEqual([["In", 1]]);
  });
});

describe("validation of a cart line", () => {
  it.each([
    [{ productId: "P", quantity: 0 }, "quantity", "Quantity must be at least 1"],
    [{ productId: "P", quantity: -3 }, "quantity", "Quantity must be at least 1"],
    [{ productId: "P", quantity: 1.5 }, "quantity", "Quantity must be a whole number"],
    [{ productId: "P", quantity: "abc" }, "quantity", "Quantity must be a number"],
    [{ productId: "P", quantity: 1001 }, "quantity", "Quantity must be at most 1000"],
    [{ productId: "P" }, "quantity", "Quantity is required"],
    [{ quantity: 1 }, "productId", "Product is required"],
    [{ productId: "   ", quantity: 1 }, "productId", "Product is required"],
    // A product id that is not text is bad input (it once crashed the trim: 500).
    [{ productId: { $ne: null }, quantity: 1 }, "productId", "Product id must be text"],
    [{ productId: ["P"], quantity: 1 }, "productId", "Product id must be text"],
  ])(
    "refuses %o with 400 naming the field, on POST and PUT, leaving the cart as it was",
    async (body, field, message) => {
      const [id] = await insertProducts(server, [{ name: "Valid", stock: 10 }]);
      await add(id!, 1);
      const realBody = { ...body, ...("productId" in body && body.productId === "P" ? { productId: id } : {}) };
      for (const method of ["POST", "PUT"]) {
        const response = await client.api(method, "/cart", { body: realBody, token: customerToken });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, message, errors: [{ field, message }] });
      }
      expect(lines(await getCart())).toEqual([["Valid", 1]]);
    },
  );

  it("reports every problem at once, the first as the message", async () => {
    const response = await client.api("POST", "/cart", { body: {}, token: customerToken });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: "productId", message: "Product is required" },
        { field: "quantity", message: "Quantity is required" },
      ]),
    );
    expect(response.body.message).toBe(response.body.errors[0].message);
  });

  it("answers 404 'Product not found' for an unknown or malformed product id, on POST and PUT", async () => {
    for (const productId of ["00000000-0000-4000-8000-000000000000", "not-an-id", "1 OR 1=1", "x".repeat(65)]) {
      for (const method of ["POST", "PUT"]) {
        const response = await client.api(method, "/cart", { body: { productId, quantity: 1 }, token: customerToken });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, message: "Product not found" });
      }
    }
    expect((await getCart()).body.data.cart.items).toEqual([]);
  });
});

describe("stock limits", () => {
  it("refuses more than the stock in one add with 409, and the cart stays unchanged", async () => {
    const [id] = await insertProducts(server, [{ name: "Scarce", stock: 3 }]);
    const response = await add(id!, 4);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, message: "Not enough stock available" });
    expect((await getCart()).body.data.cart.items).toEqual([]);
  });

  it("refuses adds that together pass the stock, keeping the line as it was", async () => {
    const [id] = await insertProducts(server, [{ name: "Scarce", stock: 3 }]);
    expect((await add(id!, 2)).status).toBe(200);
    const tooMany = await add(id!, 2);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toEqual({ success: false, message: "Not enough stock available" });
    expect(lines(await getCart())).toEqual([["Scarce", 2]]);
    // Exactly the stock is fine.
    expect(lines(await add(id!, 1))).toEqual([["Scarce", 3]]);
  });

  it("refuses setting a quantity above the stock with 409, keeping the line", async () => {
    const [id] = await insertProducts(server, [{ name: "Scarce", stock: 3 }]);
    await add(id!, 1);
    const response = await setQuantity(id!, 4);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, message: "Not enough stock available" });
    expect(lines(await getCart())).toEqual([["Scarce", 1]]);
    expect(lines(await setQuantity(id!, 3))).toEqual([["Scarce", 3]]);
  });

  it("refuses an out-of-stock product", async () => {
    const [id] = await insertProducts(server, [{ name: "Sold Out", stock: 0 }]);
    expect((await add(id!, 1)).status).toBe(409);
  });
});

describe("DELETE /cart/items/:productId", () => {
  it("removes the line, and removing it again (or a malformed id) changes nothing", async () => {
    const [keep, drop] = await insertProducts(server, [
      { name: "Keep", price: 10, stock: 5 },
      { name: "Drop", price: 20, stock: 5 },
    ]);
    await add(keep!, 1);
    await add(drop!, 2);
    const removed = await client.api("DELETE", `/cart/items/${drop}`, { token: customerToken });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe("Item removed from cart");
    expect(lines(removed)).toEqual([["Keep", 1]]);
    expect(removed.body.data.total).toBe(10);

    for (const productId of [drop, "not-an-id", "00000000-0000-4000-8000-000000000000"]) {
      const again = await client.api("DELETE", `/cart/items/${productId}`, { token: customerToken });
      expect(again.status).toBe(200);
      expect(lines(again)).toEqual([["Keep", 1]]);
      expect(again.body.data.total).toBe(10);
    }
  });

  it("removes only from the caller's cart", async () => {
    const [id] = await insertProducts(server, [{ name: "Shared" }]);
    await add(id!, 1);
    await add(id!, 1, otherToken);
    await client.api("DELETE", `/cart/items/${id}`, { token: otherToken });
    expect(lines(await getCart())).toEqual([["Shared", 1]]);
  });
});

describe("DELETE /cart", () => {
  it("empties the cart, total 0", async () => {
    const [a, b] = await insertProducts(server, [{ name: "A" }, { name: "B" }]);
    await add(a!, 1);
    await add(b!, 2);
    const cleared = await client.api("DELETE", "/cart", { token: customerToken });
    expect(cleared.status).toBe(200);
    expect(cleared.body.success).toBe(true);
    expect(cleared.body.message).toBe("Cart cleared");
    expect(cleared.body.data.cart.items).toEqual([]);
    expect(cleared.body.data.total).toBe(0);
    expect((await getCart()).body.data.cart.items).toEqual([]);
    // Clearing an empty cart is harmless.
    const again = await client.api("DELETE", "/cart", { token: customerToken });
    expect(again.status).toBe(200);
    expect(again.body.data.total).toBe(0);
  });
});

describe("money", () => {
  it("adds up the total exactly (no floating-point leftovers)", async () => {
    const [pricey, tenth, fifth, big, small] = await insertProducts(server, [
      { name: "Pricey", price: 1000.1, stock: 10 },
      { name: "Tenth", price: 0.1, stock: 10 },
      { name: "Fifth", price: 0.2, stock: 10 },
      { name: "Big", price: 1250000.5, stock: 10 },
      { name: "Small", price: 19.99, stock: 10 },
    ]);
    expect((await add(pricey!, 3)).body.data.total).toBe(3000.3);
    await client.api("DELETE", "/cart", { token: customerToken });

    await add(tenth!, 1);
    const pointThree = await add(fifth!, 1);
    expect(pointThree.body.data.total).toBe(0.3);
    expect(pointThree.body.data.cart.items.map((line: { product: { price: number } }) => line.product.price)).toEqual([
      0.1, 0.2,
    ]);
    await client.api("DELETE", "/cart", { token: customerToken });

    await add(big!, 7);
    expect((await add(small!, 3)).body.data.total).toBe(8750063.47);
  });

  it("totals at the product's current price", async () => {
    const [id] = await insertProducts(server, [{ name: "Repriced", price: 100, stock: 10 }]);
    await add(id!, 2);
    await server.database.db("products").where({ id }).update({ price: 150.25 });
    const cart = await getCart();
    expect(cart.body.data.cart.items[0].product.price).toBe(150.25);
    expect(cart.body.data.total).toBe(300.5);
  });
});

describe("guests", () => {
  it("get 401 on every cart call, with a bad token too", async () => {
    const [id] = await insertProducts(server, [{ name: "Guarded" }]);
    const calls = [
      ["GET", "/cart", undefined],
      ["POST", "/cart", { productId: id, quantity: 1 }],
      ["PUT", "/cart", { productId: id, quantity: 1 }],
      ["DELETE", `/cart/items/${id}`, undefined],
      ["DELETE", "/cart", undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      for (const token of [undefined, "not-a-real-token"]) {
        const response = await client.api(method, path, { body, token });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ success: false, message: "Not authorized, please log in" });
      }
    }
    expect(await server.database.db("carts").count("* as count").first()).toEqual({ count: 0 });
  });
});

describe("concurrent changes", () => {
  it("lands every one of 10 simultaneous adds of one product: quantity 10, one line", async () => {
    const [id] = await insertProducts(server, [{ name: "Popular", price: 10, stock: 10 }]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => add(id!, 1)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const cart = await getCart();
    expect(lines(cart)).toEqual([["Popular", 10]]);
    expect(cart.body.data.total).toBe(100);
  });

  it("never passes the stock under simultaneous adds: with stock 5, exactly 5 of 10 adds succeed", async () => {
    const [id] = await insertProducts(server, [{ name: "Limited", stock: 5 }]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => add(id!, 1)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(5).fill(409)]);
    expect(lines(await getCart())).toEqual([["Limited", 5]]);
  });

  it("loses no line when a new shopper adds different products at once (the cart is made once)", async () => {
    const shopper = await newShopper();
    const ids = await insertProducts(
      server,
      Array.from({ length: 6 }, (_, index) => ({ name: `Watch ${index}`, stock: 3 })),
    );
    const responses = await Promise.all(ids.map((id) => add(id, 2, shopper.token)));
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(200));
    const cart = await getCart(shopper.token);
    expect(cart.body.data.cart.items.map((line: { product: { _id: string } }) => line.product._id).sort()).toEqual(
      [...ids].sort(),
    );
    expect(cart.body.data.cart.items.every((line: { quantity: number }) => line.quantity === 2)).toBe(true);
    expect(await server.database.db("carts").where({ userId: shopper.id }).count("* as count").first()).toEqual({
      count: 1,
    });
  });
});

/** What the cart page reads of products deleted from the shopper's cart (told once, then forgotten). */
const removedNames = async (userId: string) => (await server.services.cart.readCartPage(userId)).removedNames;

describe("a deleted product", () => {
  it("leaves every cart, and the shopper is told its name once", async () => {
    const [gone, stays] = await insertProducts(server, [
      { name: "Discontinued", price: 500, stock: 5 },
      { name: "Still Sold", price: 100, stock: 5 },
    ]);
    const shopper = await newShopper();
    await add(gone!, 2);
    await add(stays!, 1);
    await add(gone!, 1, shopper.token);

    const deleted = await client.api("DELETE", `/products/${gone}`, { token: adminToken });
    expect(deleted.status).toBe(200);

    const cart = await getCart();
    expect(lines(cart)).toEqual([["Still Sold", 1]]);
    expect(cart.body.data.total).toBe(100);
    expect(await removedNames(customerId)).toEqual(["Discontinued"]);
    expect(await removedNames(customerId)).toEqual([]);

    expect((await getCart(shopper.token)).body.data.cart.items).toEqual([]);
    expect(await removedNames(shopper.id)).toEqual(["Discontinued"]);
    expect(await removedNames(shopper.id)).toEqual([]);
  });

  it("tells nothing to a shopper whose cart never held it, or who has no cart", async () => {
    const [id, other] = await insertProducts(server, [{ name: "Unwanted" }, { name: "Other" }]);
    const shopper = await newShopper();
    await add(other!, 1);
    await client.api("DELETE", `/products/${id}`, { token: adminToken });
    expect(await removedNames(customerId)).toEqual([]);
    expect(await removedNames(shopper.id)).toEqual([]);
    expect(lines(await getCart())).toEqual([["Other", 1]]);
  });
});
