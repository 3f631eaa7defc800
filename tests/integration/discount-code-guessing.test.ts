/**
 * Guessing discount codes (docs/decisions/2026-11-25-discount-code-guessing.md): codes that are
 * not valid are counted per customer (20 a quarter hour) and per client address (40), on
 * checkout's Apply, on Place Order and on the API's `discountCode` alike; past a limit every code
 * is a 429 with Retry-After, a good one too. The code is judged before any other rule of the
 * order, and "only for your first order" is said only of a valid code. The store sits behind a
 * proxy on this machine (TRUST_PROXY=loopback), so each request names its client's address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

const NOT_VALID = "This discount code is not valid";
const FIRST_ONLY = "This code is only for your first order";
const TOO_MANY = "Too many discount codes tried. Please wait a few minutes and try again.";
const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const checkoutForm = { ...address, phone: "0300-1234567" };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMITS: "on", TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await server?.close();
});

let shoppers = 0;
/**
 * A customer at the client address `ip`, signed in on the pages and with an API token, with a
 * watch in the cart (none when `stock` is 0 and nothing is added).
 */
async function shopper(ip: string, options: { cart?: boolean; stock?: number } = {}) {
  shoppers += 1;
  const email = `guesser${shoppers}@codes.test`;
  const [row] = await server.database
    .db("users")
    .insert({ name: `Guesser ${shoppers}`, email, passwordHash: await hashPassword("guesserpass1", 4) })
    .returning("id");
  const from = { "x-forwarded-for": ip };
  const page = new TestClient(server.baseUrl);
  expect((await page.postForm("/login", { email, password: "guesserpass1" }, from)).status).toBe(303);
  const api = new TestClient(server.baseUrl);
  const login = await api.api("POST", "/auth/login", { body: { email, password: "guesserpass1" }, headers: from });
  const token: string = login.body.data.token;
  const [productId] = await insertProducts(server, [{ name: `Guess Watch ${shoppers}`, price: 10_000, stock: 5 }]);
  const addToCart = async () =>
    expect((await api.api("POST", "/cart", { body: { productId, quantity: 1 }, token, headers: from })).status).toBe(
      200,
    );
  if (options.cart !== false) await addToCart();
  if (options.stock !== undefined) await server.database.db("products").where({ id: productId }).update({ stock: 0 });
  return {
    id: row.id as string,
    addToCart,
    order: (discountCode?: string) =>
      api.api("POST", "/orders", {
        body: discountCode === undefined ? { address } : { address, discountCode },
        token,
        headers: from,
      }),
    apply: (discountCode: string) =>
      page.postForm("/checkout", { ...checkoutForm, checkoutKey: "k-apply", discountCode, intent: "apply" }, from),
    placeOrder: (discountCode: string, checkoutKey: string) =>
      page.postForm("/checkout", { ...checkoutForm, checkoutKey, discountCode }, from),
  };
}

const ordersOf = (userId: string) => server.database.db("orders").where({ userId });
const fieldError = (message: string) =>
  `<p class="field-error" id="field-discountCode-error" role="alert">${message}</p>`;

describe("guessing discount codes", () => {
  it("stops a customer after 20 codes that are not valid, on Apply, Place Order and the API alike, a good code too", async () => {
    const guesser = await shopper("203.0.113.10");
    for (let guess = 0; guess < 20; guess += 1) {
      const code = `GUESS${guess}`;
      if (guess % 3 === 0) {
        const answer = await guesser.order(code);
        expect(answer.status, code).toBe(400);
        expect(answer.body.errors).toEqual([{ field: "discountCode", message: NOT_VALID }]);
      } else {
        const answer = guess % 3 === 1 ? await guesser.apply(code) : await guesser.placeOrder(code, `k-${guess}`);
        expect(answer.status, code).toBe(400);
        expect(await answer.text()).toContain(fieldError(NOT_VALID));
      }
    }
    // FIRST10 is good for this first order, and refused all the same until the quarter hour ends.
    const api = await guesser.order("FIRST10");
    expect(api.status).toBe(429);
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(api.body).toEqual({ success: false, message: TOO_MANY });
    const applied = await guesser.apply("first10");
    expect(applied.status).toBe(429);
    expect(Number(applied.headers.get("retry-after"))).toBeGreaterThan(0);
    const appliedText = await applied.text();
    expect(appliedText).toContain(fieldError(TOO_MANY));
    expect(appliedText).not.toContain("<dt>Discount");
    const placed = await guesser.placeOrder("FIRST10", "k-good");
    expect(placed.status).toBe(429);
    expect(await placed.text()).toContain(fieldError(TOO_MANY));
    expect(await ordersOf(guesser.id)).toHaveLength(0);

    // Another customer at another address applies FIRST10 as usual.
    const other = await shopper("203.0.113.11");
    const otherApplied = await other.apply("FIRST10");
    expect(otherApplied.status).toBe(200);
    expect(await otherApplied.text()).toContain("<dt>Discount (FIRST10)</dt>");
    // The guesser still orders without a code.
    expect((await guesser.order()).status).toBe(201);
  });

  it("stops one client address after 40 codes that are not valid, whichever of its customers gave them", async () => {
    const ip = "198.51.100.50";
    const [first, second] = [await shopper(ip), await shopper(ip)];
    for (let guess = 0; guess < 20; guess += 1) {
      expect((await first.order(`FIRSTACC${guess}`)).status).toBe(400);
      expect((await second.order(`SECONDACC${guess}`)).status).toBe(400);
    }
    const third = await shopper(ip);
    const refused = await third.order("FIRST10");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY);
    expect((await third.apply("FIRST10")).status).toBe(429);
    // A customer at another address is not affected.
    const elsewhere = await shopper("198.51.100.51");
    expect((await elsewhere.order("FIRST10")).status).toBe(201);
  });

  it("judges the code before any other rule of the order, and says 'first order' only of a valid code", async () => {
    // An empty cart and a watch out of stock: the code is what is answered, and counted.
    const empty = await shopper("192.0.2.30", { cart: false });
    const emptyAnswer = await empty.order("NOPE10");
    expect(emptyAnswer.status).toBe(400);
    expect(emptyAnswer.body.errors).toEqual([{ field: "discountCode", message: NOT_VALID }]);
    expect((await empty.order("FIRST10")).body.message).toBe("Your cart is empty");
    const soldOut = await shopper("192.0.2.31", { stock: 0 });
    const soldOutAnswer = await soldOut.order("NOPE10");
    expect(soldOutAnswer.status).toBe(400);
    expect(soldOutAnswer.body.errors).toEqual([{ field: "discountCode", message: NOT_VALID }]);

    // A returning customer: an unknown or ended first-order code is "not valid"; FIRST10, a valid
    // code, is "only for your first order", which is not a failed code.
    await server.database.db("discount_codes").insert({
      code: "OLDFIRST",
      type: "percent",
      value: 10,
      firstOrderOnly: true,
      active: true,
      endsAt: new Date(Date.now() - 60_000),
    });
    const returning = await shopper("192.0.2.32");
    expect((await returning.order()).status).toBe(201);
    await returning.addToCart();
    for (const code of ["NOTACODE", "OLDFIRST"]) {
      expect((await returning.order(code)).body.errors, code).toEqual([{ field: "discountCode", message: NOT_VALID }]);
    }
    for (let again = 0; again < 5; again += 1) {
      const answer = await returning.order("FIRST10");
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: "discountCode", message: FIRST_ONLY }]);
    }
    const page = await returning.apply("FIRST10");
    expect(await page.text()).toContain(fieldError(FIRST_ONLY));
    // 2 failed codes so far: 18 more are answered, the next is refused.
    for (let guess = 0; guess < 18; guess += 1) expect((await returning.order(`LATE${guess}`)).status).toBe(400);
    expect((await returning.order("LATE18")).status).toBe(429);
  });
});
