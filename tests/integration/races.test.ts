/**
 * Races, on the real server and database: many requests at once, through the pages and the API,
 * then the books are checked. Never an oversell or a negative stock, never a lost or duplicated
 * order, never a lost cart line, never a 5xx. The one invariant checked after every race:
 * for each product, stock + units in orders that are not Cancelled = the stock it started with.
 * (Stampedes through the API alone, same-product adds, the Idempotency-Key and the API double
 * submit are in orders-api-create.test.ts and cart-api.test.ts.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let adminId: string;
let cheapHash: string;

beforeAll(async () => {
  server = await startTestServer();
  // One cheap bcrypt hash for everyone: many log-ins below (log-in accepts any cost).
  cheapHash = await hashPassword("racepass1", 4);
  const [admin] = await server.database
    .db("users")
    .insert({ name: "Race Admin", email: "admin@races.test", passwordHash: cheapHash, role: "admin" })
    .returning("id");
  adminId = admin.id;
});
afterAll(async () => {
  await server?.close();
});

/** Stock each product started with, to check the books against. */
const startingStock = new Map<string, number>();
beforeEach(() => startingStock.clear());

async function products(...stocks: number[]): Promise<string[]> {
  const ids = await insertProducts(
    server,
    stocks.map((stock, index) => ({ name: `Race Watch ${Date.now()}-${index}`, stock, price: 1000 + index })),
  );
  ids.forEach((id, index) => startingStock.set(id, stocks[index]!));
  return ids;
}

let shopperCount = 0;
/** A new customer: a signed-in browser (page session) and an API token. */
async function shopper(): Promise<{ id: string; page: TestClient; token: string }> {
  shopperCount += 1;
  const email = `shopper${shopperCount}@races.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Shopper ${shopperCount}`, email, passwordHash: cheapHash })
    .returning("id");
  const page = new TestClient(server.baseUrl);
  expect((await page.postForm("/login", { email, password: "racepass1" })).status).toBe(303);
  return { id: row.id, page, token: (await server.services.accounts.issueToken(row.id)).token };
}

async function admin(): Promise<{ page: TestClient; token: string }> {
  const page = new TestClient(server.baseUrl);
  expect((await page.postForm("/login", { email: "admin@races.test", password: "racepass1" })).status).toBe(303);
  return { page, token: (await server.services.accounts.issueToken(adminId)).token };
}

const address = {
  street: "9 Race Course Road",
  city: "Lahore",
  state: "Punjab",
  zipCode: "54000",
  country: "Pakistan",
};
const api = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  new TestClient(server.baseUrl).api(method, path, { token, body, headers });
const addToCart = async (token: string, productId: string, quantity: number) =>
  expect((await api("POST", "/cart", token, { productId, quantity })).status).toBe(200);

/** The checkout form's key, as the page hands it out. */
async function checkoutKey(page: TestClient) {
  const html = await (await page.get("/checkout")).text();
  return /name="checkoutKey" value="([^"]+)"/.exec(html)![1]!;
}

/** The books: for each product started here, stock + units sold and not cancelled = the start, and never below zero. */
async function expectBooksBalance() {
  const ids = [...startingStock.keys()];
  const rows: { id: string; stock: number; sold: number }[] = (
    await server.database.db.raw(
      `SELECT p.id, p.stock, COALESCE(SUM(oi.quantity) FILTER (WHERE o.status <> 'Cancelled'), 0)::int AS sold
         FROM products p
         LEFT JOIN order_items oi ON oi.product_id = p.id
         LEFT JOIN orders o ON o.id = oi.order_id
        WHERE p.id = ANY(?::uuid[])
        GROUP BY p.id, p.stock`,
      [ids],
    )
  ).rows;
  for (const row of rows) {
    expect(row.stock, `stock of ${row.id}`).toBeGreaterThanOrEqual(0);
    expect(row.stock + row.sold, `books of ${row.id}`).toBe(startingStock.get(row.id));
  }
}

const statuses = (responses: { status: number }[]) => responses.map((response) => response.status);
const never5xx = (responses: { status: number }[]) =>
  expect(
    statuses(responses).filter((status) => status >= 500),
    `5xx among ${statuses(responses)}`,
  ).toEqual([]);

describe("checkout stampede on the last units", () => {
  it("sells 4 units to exactly 4 of 12 shoppers checking out at once through the form and the API; the others keep their carts", async () => {
    const [watch] = await products(4);
    const shoppers = await Promise.all(Array.from({ length: 12 }, () => shopper()));
    for (const { token } of shoppers) await addToCart(token, watch!, 1);
    const keys = await Promise.all(
      shoppers.map(({ page }, index) => (index % 2 === 0 ? checkoutKey(page) : Promise.resolve(""))),
    );

    const responses = await Promise.all(
      shoppers.map(({ page, token }, index) =>
        index % 2 === 0
          ? page.postForm("/checkout", { ...address, phone: "0300-1234567", checkoutKey: keys[index]! })
          : api("POST", "/orders", token, { address }),
      ),
    );
    never5xx(responses);
    // A page order is a 303 to its success page; an API order a 201. A refusal is a 409.
    const placed = responses.filter((response) => response.status === 303 || response.status === 201);
    expect(placed).toHaveLength(4);
    expect(statuses(responses).filter((status) => status === 409)).toHaveLength(8);
    for (const [index, response] of responses.entries()) {
      if (response.status !== 409) continue;
      const text = response instanceof Response ? await response.text() : response.text;
      expect(text, `shopper ${index}`).toContain("Not enough stock available for Race Watch");
    }
    expect(
      Number(
        (await server.database
          .db("orders")
          .whereIn(
            "userId",
            shoppers.map((s) => s.id),
          )
          .count("* as count")
          .first())!.count,
      ),
    ).toBe(4);
    for (const [index, { token }] of shoppers.entries()) {
      const lines = (await api("GET", "/cart", token)).body.data.cart.items.length;
      expect(lines, `cart of shopper ${index}`).toBe(placed.includes(responses[index]!) ? 0 : 1);
    }
    await expectBooksBalance();
    expect((await server.database.db("products").where({ id: watch }).first()).stock).toBe(0);
  });

  it("makes one order of two checkout forms of one shopper (two tabs, two keys) sent at once; the other is told the cart is empty", async () => {
    const [watch] = await products(5);
    const { page, token } = await shopper();
    await addToCart(token, watch!, 2);
    const [firstTab, secondTab] = [await checkoutKey(page), await checkoutKey(page)];
    expect(firstTab).not.toBe(secondTab);
    const responses = await Promise.all([
      page.postForm("/checkout", { ...address, phone: "0300-1234567", checkoutKey: firstTab }),
      page.postForm("/checkout", { ...address, phone: "0300-1234567", checkoutKey: secondTab }),
    ]);
    expect(statuses(responses).sort()).toEqual([303, 400]);
    expect(await responses.find((response) => response.status === 400)!.text()).toContain("Your cart is empty");
    expect((await api("GET", "/orders/me", token)).body.data).toHaveLength(1);
    await expectBooksBalance();
  });
});

describe("one cart, several tabs", () => {
  it("loses no line and no unit when tabs add, set and remove different lines at once (through the forms)", async () => {
    const ids = await products(20, 20, 20, 20, 20, 20, 20, 20, 20, 20);
    const { page, token } = await shopper();
    const [kept, removed, ...added] = ids as [string, string, ...string[]];
    await addToCart(token, kept, 1);
    await addToCart(token, removed, 1);
    const tab = () => {
      const other = new TestClient(server.baseUrl);
      // The same browser: the same session cookie in another tab.
      return {
        post: (fields: Record<string, string>) => other.postForm("/cart", fields, { cookie: page.cookieHeader() }),
      };
    };
    const sequence = async (fields: Record<string, string>[]) => {
      const results = [];
      for (const field of fields) results.push(await tab().post(field));
      return results;
    };
    const results = (
      await Promise.all([
        sequence(added.slice(0, 4).map((productId) => ({ intent: "add", productId, quantity: "1", then: "cart" }))),
        sequence(added.slice(4).map((productId) => ({ intent: "add", productId, quantity: "2", then: "cart" }))),
        sequence([{ intent: "set", productId: kept, quantity: "3" }]),
        sequence([{ intent: "remove", productId: removed }]),
      ])
    ).flat();
    expect(statuses(results).every((status) => status === 303)).toBe(true);
    const lines = new Map<string, number>(
      (await api("GET", "/cart", token)).body.data.cart.items.map(
        (line: { product: { _id: string }; quantity: number }) => [line.product._id, line.quantity],
      ),
    );
    expect(Object.fromEntries(lines)).toEqual(
      Object.fromEntries([
        [kept, 3],
        ...added.slice(0, 4).map((id) => [id, 1]),
        ...added.slice(4).map((id) => [id, 2]),
      ]),
    );
  });

  it("adds every unit of eight simultaneous Add to Cart presses of one watch (no lost update), up to the stock", async () => {
    const [watch, scarce] = await products(50, 5);
    const { page, token } = await shopper();
    const press = (productId: string) =>
      new TestClient(server.baseUrl).postForm(
        "/cart",
        { intent: "add", productId, quantity: "1", then: "cart" },
        { cookie: page.cookieHeader() },
      );
    never5xx(await Promise.all(Array.from({ length: 8 }, () => press(watch!))));
    never5xx(await Promise.all(Array.from({ length: 8 }, () => press(scarce!))));
    const items: { product: { _id: string }; quantity: number }[] = (await api("GET", "/cart", token)).body.data.cart
      .items;
    expect(items.find((line) => line.product._id === watch)?.quantity).toBe(8);
    expect(items.find((line) => line.product._id === scarce)?.quantity).toBe(5);
  });
});

describe("an admin changing a status while the customer looks", () => {
  it("shows the customer a whole order at every moment, and the books balance after every change", async () => {
    const [first, second] = await products(10, 10);
    const customer = await shopper();
    await addToCart(customer.token, first!, 2);
    await addToCart(customer.token, second!, 3);
    const placed = await api("POST", "/orders", customer.token, { address });
    expect(placed.status).toBe(201);
    const orderId: string = placed.body.data._id;
    const { token: adminToken, page: adminPage } = await admin();

    let changing = true;
    const changes = (async () => {
      const results = [];
      for (const status of [
        "Shipped",
        "Cancelled",
        "Pending",
        "Delivered",
        "Cancelled",
        "Shipped",
        "Cancelled",
        "Pending",
      ]) {
        results.push(
          status === "Delivered"
            ? await adminPage.postForm("/admin/orders", { orderId, status, returnTo: "/admin/orders" })
            : await api("PATCH", `/orders/${orderId}/status`, adminToken, { status }),
        );
      }
      changing = false;
      return results;
    })();
    const reads: { status: number }[] = [];
    const looks = (async () => {
      while (changing) {
        const [order, mine, success] = await Promise.all([
          api("GET", `/orders/${orderId}`, customer.token),
          customer.page.get("/my-orders"),
          customer.page.get(`/order-success/${orderId}`),
        ]);
        reads.push(order, mine, success);
        expect(order.status).toBe(200);
        expect(["Pending", "Shipped", "Delivered", "Cancelled"]).toContain(order.body.data.status);
        expect(order.body.data.items.map((item: { quantity: number }) => item.quantity).sort()).toEqual([2, 3]);
        expect(order.body.data.totalPrice).toBe(2 * 1000 + 3 * 1001);
        expect(await mine.text()).toMatch(/class="status status--(pending|shipped|delivered|cancelled)"/);
        await success.text();
      }
    })();
    const results = await changes;
    await looks;
    never5xx([...results, ...reads]);
    expect(statuses(results).every((status) => status === 200 || status === 303)).toBe(true);
    expect(reads.length).toBeGreaterThan(0);
    expect((await api("GET", `/orders/${orderId}`, customer.token)).body.data.status).toBe("Pending");
    await expectBooksBalance();
  });
});

describe("cancel and un-cancel at once", () => {
  it("returns the stock once for a double Cancel and claims it once for a double un-cancel", async () => {
    const [watch] = await products(6);
    const customer = await shopper();
    await addToCart(customer.token, watch!, 4);
    const orderId: string = (await api("POST", "/orders", customer.token, { address })).body.data._id;
    const { token, page } = await admin();
    const cancels = await Promise.all([
      api("PATCH", `/orders/${orderId}/status`, token, { status: "Cancelled" }),
      page.postForm("/admin/orders", { orderId, status: "Cancelled" }),
      api("PATCH", `/orders/${orderId}/status`, token, { status: "Cancelled" }),
    ]);
    never5xx(cancels);
    expect((await server.database.db("products").where({ id: watch }).first()).stock).toBe(6);
    await expectBooksBalance();
    const restores = await Promise.all([
      api("PATCH", `/orders/${orderId}/status`, token, { status: "Pending" }),
      // Shipped from the page goes on to ask for the courier; Delivered claims the stock like it.
      page.postForm("/admin/orders", { orderId, status: "Delivered" }),
      api("PATCH", `/orders/${orderId}/status`, token, { status: "Pending" }),
    ]);
    never5xx(restores);
    expect((await server.database.db("products").where({ id: watch }).first()).stock).toBe(2);
    await expectBooksBalance();
  });

  it("keeps the books when two admins flip one order back and forth while shoppers buy the same watch", async () => {
    const [watch] = await products(8);
    const customer = await shopper();
    await addToCart(customer.token, watch!, 3);
    const orderId: string = (await api("POST", "/orders", customer.token, { address })).body.data._id;
    const buyers = await Promise.all(Array.from({ length: 4 }, () => shopper()));
    for (const buyer of buyers) await addToCart(buyer.token, watch!, 2);
    const [one, two] = [await admin(), await admin()];
    const flips = (token: string, first: string, second: string) =>
      Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          api("PATCH", `/orders/${orderId}/status`, token, { status: index % 2 === 0 ? first : second }),
        ),
      );
    const results = (
      await Promise.all([
        flips(one.token, "Cancelled", "Pending"),
        flips(two.token, "Shipped", "Cancelled"),
        Promise.all(buyers.map((buyer) => api("POST", "/orders", buyer.token, { address }))),
      ])
    ).flat();
    never5xx(results);
    // A refused change says why (an un-cancel when the units were sold meanwhile, a sold-out checkout).
    for (const refused of results.filter((response) => response.status === 409)) {
      expect(refused.body.message).toMatch(
        /^(Cannot restore this order: not enough stock for|Not enough stock available for) Race Watch/,
      );
    }
    await expectBooksBalance();
  });

  it("keeps the books and never deadlocks when orders sharing watches are cancelled, restored and bought at once", async () => {
    const [a, b, c] = await products(30, 30, 30);
    const orders: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const customer = await shopper();
      // The same watches, added in different orders.
      const mix = [
        [a!, b!, c!],
        [c!, b!, a!],
        [b!, a!, c!],
      ][index % 3]!;
      for (const productId of mix) await addToCart(customer.token, productId, 1);
      orders.push((await api("POST", "/orders", customer.token, { address })).body.data._id);
    }
    const buyers = await Promise.all(Array.from({ length: 4 }, () => shopper()));
    for (const [index, buyer] of buyers.entries())
      for (const productId of index % 2 ? [a!, c!] : [c!, b!]) await addToCart(buyer.token, productId, 2);
    const { token } = await admin();
    for (const round of ["Cancelled", "Pending"]) {
      const results = await Promise.all([
        ...orders.map((orderId) => api("PATCH", `/orders/${orderId}/status`, token, { status: round })),
        ...(round === "Cancelled" ? buyers.map((buyer) => api("POST", "/orders", buyer.token, { address })) : []),
      ]);
      never5xx(results);
      expect(statuses(results).every((status) => status === 200 || status === 201)).toBe(true);
      await expectBooksBalance();
    }
  });
});

describe("double submits", () => {
  it("makes one account of a sign-up sent twice at once (page and API); the other is told the email is taken", async () => {
    const fields = { name: "Twice", email: "twice@races.test", password: "twicepass1", confirmPassword: "twicepass1" };
    const responses = await Promise.all([
      new TestClient(server.baseUrl).postForm("/signup", fields),
      new TestClient(server.baseUrl).postForm("/signup", fields),
      new TestClient(server.baseUrl).api("POST", "/auth/register", { body: { ...fields, email: "TWICE@races.test" } }),
    ]);
    never5xx(responses);
    expect(statuses(responses).filter((status) => status === 303 || status === 201)).toHaveLength(1);
    expect(statuses(responses).filter((status) => status === 409)).toHaveLength(2);
    expect(await server.database.db("users").where({ email: "twice@races.test" })).toHaveLength(1);
  });

  it("deletes a product once when its Delete is confirmed twice; the second is told it is gone", async () => {
    const [watch] = await products(3);
    const { page } = await admin();
    const responses = await Promise.all([
      page.postForm(`/admin/products/${watch}/delete`, {}),
      page.postForm(`/admin/products/${watch}/delete`, {}),
    ]);
    expect(statuses(responses).sort()).toEqual([303, 404]);
  });

  it("gives one shopper an email another confirms at the same moment, and the other a 409", async () => {
    const [first, second] = [await shopper(), await shopper()];
    const profile = (token: string) =>
      api("PUT", "/auth/update-profile", token, {
        name: "Same Email",
        email: "wanted@races.test",
        address,
        currentPassword: "racepass1",
      });
    // Asking is not having: both changes wait for their links.
    expect(statuses(await Promise.all([profile(first.token), profile(second.token)]))).toEqual([200, 200]);
    // No outbox sender runs here: the links are read from the queued mails.
    const links = (await server.database.db("outbox").where({ recipient: "wanted@races.test" })).map(
      (row) => /\/confirm-email\?token=([\w-]+)/.exec(row.textBody)![1]!,
    );
    expect(links).toHaveLength(2);
    const responses = await Promise.all(
      links.map((token) => new TestClient(server.baseUrl).postForm("/confirm-email", { token })),
    );
    expect(statuses(responses).sort()).toEqual([303, 409]);
    expect(await server.database.db("users").where({ email: "wanted@races.test" })).toHaveLength(1);
  });
});

describe("the store changing under a checkout", () => {
  it("answers every shopper with an order or a refusal when the watch in their carts is deleted meanwhile; orders keep their copy", async () => {
    const [watch] = await products(20);
    const shoppers = await Promise.all(Array.from({ length: 6 }, () => shopper()));
    for (const { token } of shoppers) await addToCart(token, watch!, 1);
    const { token } = await admin();
    const responses = await Promise.all([
      ...shoppers.slice(0, 3).map((s) => api("POST", "/orders", s.token, { address })),
      api("DELETE", `/products/${watch}`, token),
      ...shoppers.slice(3).map((s) => api("POST", "/orders", s.token, { address })),
    ]);
    never5xx(responses);
    for (const response of responses) expect([200, 201, 400]).toContain(response.status);
    const placed = responses.filter((response) => response.status === 201);
    for (const order of placed) {
      const kept = await api("GET", `/orders/${order.body.data._id}`, token);
      expect(kept.body.data.items[0].product.name).toMatch(/^Race Watch/);
    }
  });

  it("answers a customer checking out while an admin deletes their account with an order or a refusal, never a 5xx", async () => {
    const [watch] = await products(40);
    const { token: adminToken } = await admin();
    for (let round = 0; round < 6; round += 1) {
      const customer = await shopper();
      await addToCart(customer.token, watch!, 1);
      const responses = await Promise.all([
        api("POST", "/orders", customer.token, { address }),
        api("DELETE", `/users/${customer.id}`, adminToken),
      ]);
      never5xx(responses);
      expect(responses[1]!.status, `round ${round}`).toBe(200);
    }
    await expectBooksBalance();
  });

  it("answers a customer starting a cart while an admin deletes their account with a cart or a refusal, never a 5xx", async () => {
    const [watch] = await products(40);
    const { token: adminToken } = await admin();
    for (let round = 0; round < 12; round += 1) {
      const customer = await shopper();
      const responses = await Promise.all([
        api("POST", "/cart", customer.token, { productId: watch!, quantity: 1 }),
        api("DELETE", `/users/${customer.id}`, adminToken),
      ]);
      never5xx(responses);
    }
  });
});

describe("a discount code under a stampede", () => {
  it("keeps maxUses through the form and the API at once while an admin cancels and restores an order that used it", async () => {
    const code = `RACE${String(Date.now()).slice(-8)}`;
    await server.database.db("discount_codes").insert({ code, type: "fixed", value: 50, maxUses: 3 });
    const ids = await products(...Array.from({ length: 11 }, () => 5));
    // One order already holds a use; the admin flips it while ten shoppers (a watch each) check out with the code.
    const early = await shopper();
    await addToCart(early.token, ids[10]!, 1);
    const held = await api("POST", "/orders", early.token, { address, discountCode: code });
    expect(held.status).toBe(201);
    const shoppers = await Promise.all(Array.from({ length: 10 }, () => shopper()));
    for (const [index, { token }] of shoppers.entries()) await addToCart(token, ids[index]!, 1);
    const keys = await Promise.all(
      shoppers.map(({ page }, index) => (index % 2 === 0 ? checkoutKey(page) : Promise.resolve(""))),
    );
    const { token: adminToken } = await admin();

    const flips = (async () => {
      const answers = [];
      for (let flip = 0; flip < 6; flip++) {
        answers.push(
          await api("PATCH", `/orders/${held.body.data._id}/status`, adminToken, {
            status: flip % 2 === 0 ? "Cancelled" : "Pending",
          }),
        );
      }
      return answers;
    })();
    const responses = await Promise.all(
      shoppers.map(({ page, token }, index) =>
        index % 2 === 0
          ? page.postForm("/checkout", {
              ...address,
              phone: "0300-1234567",
              checkoutKey: keys[index]!,
              discountCode: code.toLowerCase(),
            })
          : api("POST", "/orders", token, { address, discountCode: code }),
      ),
    );
    const flipAnswers = await flips;
    never5xx(responses);
    never5xx(flipAnswers);
    for (const answer of flipAnswers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(`Cannot restore this order: the discount code ${code} is used up`);
    }
    const placed = responses.filter((response) => response.status === 303 || response.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(2);
    expect(placed.length).toBeLessThanOrEqual(3);
    for (const response of responses.filter((response) => !placed.includes(response))) {
      expect(response.status).toBe(400);
      const text = response instanceof Response ? await response.text() : response.text;
      expect(text).toContain("This discount code is not valid");
    }
    const uses = await server.database.db("orders").where({ discountCode: code }).whereNot({ status: "Cancelled" });
    expect(uses.length).toBeLessThanOrEqual(3);
    expect(uses.length).toBe(placed.length + (uses.some((order) => order.id === held.body.data._id) ? 1 : 0));
    await expectBooksBalance();
  });
});
