import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";
import { formatRupees } from "../../server/modules/shared/money.shared";
import { pageOf, signedInClient } from "../support/page-clients";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertUser(server, { name: "Admin Desk", email: "admin@orders.test", password: "adminpass1", role: "admin" });
});
afterAll(async () => {
  await server?.close();
});

let shopperNumber = 0;
/** A new customer, signed in through the log-in page. */
async function newShopper() {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@orders.test`;
  await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  return signedIn(email, "shopperpass1");
}

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

const html = pageOf;

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
/** The checkout form's fields: the address and the mobile number. */
const checkoutForm = { ...address, phone: "0300-1234567" };

async function addToCart(client: TestClient, productId: string, quantity: number) {
  const response = await client.postForm("/cart", {
    intent: "add",
    productId,
    quantity: String(quantity),
    then: "cart",
  });
  expect(response.headers.get("location")).toBe("/cart");
}

/** The checkout form's key, as the page hands it out. */
async function checkoutKey(client: TestClient) {
  const { text } = await html(client, "/checkout");
  return /name="checkoutKey" value="([^"]+)"/.exec(text)![1]!;
}

describe("cart page", () => {
  it("invites a guest to log in", async () => {
    const page = await html(new TestClient(server.baseUrl), "/cart");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Please login to view your cart");
    expect(page.text).toContain('href="/login?redirectTo=%2Fcart"');
  });

  it("sends a guest's Add to Cart to log in, saying why, with a way to sign up and back to the watch; nothing added", async () => {
    const [id] = await insertProducts(server, [{ name: "Guest Press Watch", stock: 3 }]);
    const guest = new TestClient(server.baseUrl);
    const pressed = await guest.postForm("/cart", {
      intent: "add",
      productId: id!,
      quantity: "1",
      then: "cart",
      returnTo: `/products/${id}`,
    });
    expect(pressed.status).toBe(303);
    const login = pressed.headers.get("location")!;
    expect(login).toBe(`/login?redirectTo=%2Fproducts%2F${id}&reason=cart`);
    const page = await html(guest, login);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /Log in or <a href="\/signup\?redirectTo=%2Fproducts%2F[0-9a-f-]{36}"[^>]*>sign up<\/a> to add this watch to your cart/,
    );
    // Logging in from it goes back to the watch; signing up from it too.
    expect(page.text).toContain(`name="redirectTo" value="/products/${id}"`);
    expect((await html(guest, `/signup?redirectTo=%2Fproducts%2F${id}`)).text).toContain(
      `name="redirectTo" value="/products/${id}"`,
    );
    // The plain log-in page says nothing of a cart.
    expect((await html(guest, "/login")).text).not.toContain("to add this watch to your cart");
  });

  it("steps quantities within 1 and the stock, asks before remove and clear, and sums exactly", async () => {
    const [id] = await insertProducts(server, [{ name: "Stepper Watch", price: 1000.1, stock: 3 }]);
    const shopper = await newShopper();
    expect((await html(shopper, "/cart")).text).toContain("Your cart is empty");
    await addToCart(shopper, id!, 1);
    await shopper.postForm("/cart", { intent: "set", productId: id!, quantity: "3" });
    let cart = await html(shopper, "/cart");
    expect(cart.text).toContain("Rs. 3,000.30");
    expect(cart.text).toMatch(/value="4"[^>]*disabled=""|disabled=""[^>]*value="4"/);
    await shopper.postForm("/cart", { intent: "set", productId: id!, quantity: "4" });
    cart = await html(shopper, "/cart");
    expect(cart.text).toContain("Not enough stock available");
    expect(cart.text).toContain("Rs. 3,000.30");

    const askRemove = await html(shopper, `/cart?confirm=remove&productId=${id}`);
    expect(askRemove.text).toContain("Are you sure you want to remove this item?");
    const askClear = await html(shopper, "/cart?confirm=clear");
    expect(askClear.text).toContain("Are you sure you want to clear your cart?");
    await shopper.postForm("/cart", { intent: "remove", productId: id! });
    expect((await html(shopper, "/cart")).text).toContain("Your cart is empty");
  });

  it("marks a line whose stock fell below its quantity, refuses checkout, and tells once of a deleted product", async () => {
    const [keep, gone] = await insertProducts(server, [
      { name: "Scarce Watch", stock: 5 },
      { name: "Vanishing Watch", stock: 5 },
    ]);
    const shopper = await newShopper();
    await addToCart(shopper, keep!, 4);
    await addToCart(shopper, gone!, 1);
    await server.database.db("products").where({ id: keep }).update({ stock: 2 });
    await server.services.productRemoval.deleteProduct(gone!);

    const cart = await html(shopper, "/cart");
    expect(cart.text).toContain("Vanishing Watch is no longer available and was removed from your cart.");
    expect(cart.text).toContain("Only 2 left in stock: please lower the quantity");
    expect(cart.text).not.toContain("Proceed to Checkout");
    expect((await html(shopper, "/cart")).text).not.toContain("no longer available");

    const refused = await shopper.postForm("/checkout", { ...checkoutForm, checkoutKey: "k-scarce" });
    expect(refused.status).toBe(409);
    const body = await refused.text();
    expect(body).toContain("Not enough stock available for Scarce Watch");
    expect(body).toContain('value="12 Canal Road"');
    expect(await server.database.db("orders").where({ customerEmail: "shopper3@orders.test" }).first()).toBeUndefined();
  });
});

describe("checkout", () => {
  it("fills in the newest order's address and mobile number, else the profile's; what is paid comes before Place Order", async () => {
    const [id] = await insertProducts(server, [{ name: "Address Again", stock: 5 }]);
    const shopper = await newShopper();
    await server.database
      .db("users")
      .where({ email: `shopper${shopperNumber}@orders.test` })
      .update({ street: "7 Profile Lane", city: "Karachi", state: "Sindh", zipCode: "74000", phone: "0321-7654321" });
    await addToCart(shopper, id!, 1);
    const first = (await html(shopper, "/checkout")).text;
    for (const value of ["7 Profile Lane", "Karachi", "Sindh", "74000", "Pakistan", "0321-7654321"]) {
      expect(first).toContain(`value="${value}"`);
    }

    const placed = await shopper.postForm("/checkout", {
      street: "22 Mall Road",
      city: "Lahore",
      state: "Punjab",
      zipCode: "54000",
      country: "Pakistan",
      phone: "0300 111 2222",
      checkoutKey: await checkoutKey(shopper),
    });
    expect(placed.status).toBe(303);
    await addToCart(shopper, id!, 1);
    const again = (await html(shopper, "/checkout")).text;
    for (const value of ["22 Mall Road", "Lahore", "Punjab", "54000", "0300-1112222"]) {
      expect(again).toContain(`value="${value}"`);
    }
    expect(again).not.toContain("7 Profile Lane");

    // The summary, the discount code and the total, then Place Order (the last button of the page).
    const summary = again.indexOf("Order Summary");
    const discount = again.indexOf('id="field-discountCode"');
    const total = again.indexOf('class="cart__total"');
    const placeOrder = again.lastIndexOf(">Place Order</button>");
    expect(summary).toBeGreaterThan(again.indexOf('id="field-street"'));
    expect([summary, discount, total].every((at) => at > 0 && at < placeOrder)).toBe(true);
  });

  it("sends a guest to log in, and shows an empty cart", async () => {
    const guest = await html(new TestClient(server.baseUrl), "/checkout");
    expect(guest.status).toBe(302);
    expect(guest.location).toBe("/login?redirectTo=%2Fcheckout");
    const shopper = await newShopper();
    expect((await html(shopper, "/checkout")).text).toContain("Your cart is empty");
  });

  it("keeps the address and names each missing field", async () => {
    const [id] = await insertProducts(server, [{ name: "Address Test", stock: 2 }]);
    const shopper = await newShopper();
    await addToCart(shopper, id!, 1);
    const response = await shopper.postForm("/checkout", {
      ...checkoutForm,
      city: "",
      zipCode: " ",
      checkoutKey: "k1",
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain("City is required");
    expect(text).toContain("ZIP / Postal code is required");
    expect(text).toContain('value="12 Canal Road"');
    expect(text).toContain('value="Punjab"');
    expect((await server.database.db("products").where({ id }).first()).stock).toBe(2);
  });

  it("places the order, shows the success page, lists it in My Orders and the profile; a double submit makes one order", async () => {
    const [first, second] = await insertProducts(server, [
      { name: "Checkout One", price: 25000, stock: 5, createdAt: new Date(Date.UTC(2026, 0, 1)) },
      { name: "Checkout Two", price: 1999.99, stock: 5, createdAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
    const shopper = await newShopper();
    await addToCart(shopper, first!, 2);
    await addToCart(shopper, second!, 1);
    const summary = await html(shopper, "/checkout");
    expect(summary.text).toContain("Cash on Delivery");
    expect(summary.text).toContain("Rs. 51,999.99");
    const key = await checkoutKey(shopper);

    const [a, b] = await Promise.all([
      shopper.postForm("/checkout", { ...checkoutForm, checkoutKey: key }),
      shopper.postForm("/checkout", { ...checkoutForm, checkoutKey: key }),
    ]);
    expect(a.status).toBe(303);
    expect(b.status).toBe(303);
    expect(a.headers.get("location")).toBe(b.headers.get("location"));
    const orderId = a.headers.get("location")!.split("/").pop()!;
    const orders = await server.database.db("orders").where({ id: orderId });
    expect(orders).toHaveLength(1);
    expect(orders[0].totalPrice).toBe(51999.99);
    expect((await server.database.db("products").where({ id: first }).first()).stock).toBe(3);

    const success = await html(shopper, `/order-success/${orderId}`);
    expect(success.text).toContain("Order Placed Successfully!");
    expect(success.text).toContain(orderId.slice(-8).toUpperCase());
    expect(success.text).toContain('href="/my-orders"');
    expect((await html(shopper, "/cart")).text).toContain("Your cart is empty");

    const mine = await html(shopper, "/my-orders");
    expect(mine.text).toContain("Checkout One");
    expect(mine.text).toContain("2 × Rs. 25,000");
    expect(mine.text).toContain('class="status status--pending">Pending<');
    expect((await html(shopper, "/profile")).text).toContain("Checkout Two");

    // Another customer: the 404 page, not the order.
    const other = await newShopper();
    const hidden = await html(other, `/order-success/${orderId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain("Checkout One");
  });
});

describe("my orders, page by page", () => {
  it("shows ten orders a page, newest first, with Previous and Next, and a page past the end goes to the last", async () => {
    const shopper = await newShopper();
    const email = `shopper${shopperNumber}@orders.test`;
    const user = await server.database.db("users").where({ email }).first("id", "name");
    for (let number = 1; number <= 12; number++) {
      const [order] = await server.database
        .db("orders")
        .insert({
          userId: user.id,
          customerName: user.name,
          customerEmail: email,
          ...address,
          totalPrice: number * 1000,
          status: "Pending",
          paymentMethod: "Cash on Delivery",
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, number)),
        })
        .returning("id");
      await server.database.db("order_items").insert({
        orderId: order.id,
        productId: null,
        productName: `Paged Watch ${number}`,
        quantity: 1,
        unitPrice: number * 1000,
        position: 0,
      });
    }
    const first = await html(shopper, "/my-orders");
    expect(first.text.match(/class="card order-card"/g)).toHaveLength(10);
    expect(first.text.indexOf("Paged Watch 12")).toBeLessThan(first.text.indexOf("Paged Watch 3<"));
    expect(first.text).not.toContain("Paged Watch 2<");
    expect(first.text).toContain('href="/my-orders?page=2"');
    const second = await html(shopper, "/my-orders?page=2");
    expect(second.text.match(/class="card order-card"/g)).toHaveLength(2);
    expect(second.text).toContain("Paged Watch 1<");
    expect(second.text).toContain('href="/my-orders?page=1"');
    const beyond = await html(shopper, "/my-orders?page=9");
    expect(beyond.status).toBe(302);
    expect(beyond.location).toBe("/my-orders?page=2");
  });
});

describe("admin order desk", () => {
  async function placedOrder(stock: number, quantity: number) {
    const [id] = await insertProducts(server, [{ name: `Desk Watch ${shopperNumber + 1}`, price: 5000, stock }]);
    const shopper = await newShopper();
    await addToCart(shopper, id!, quantity);
    const placed = await shopper.postForm("/checkout", { ...checkoutForm, checkoutKey: `desk-${shopperNumber}` });
    return { productId: id!, orderId: placed.headers.get("location")!.split("/").pop()! };
  }
  const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first()).stock;

  it("is for admins only", async () => {
    const customer = await newShopper();
    expect((await html(customer, "/admin/orders")).location).toBe("/");
    const refused = await customer.postForm("/admin/orders", {
      orderId: "00000000-0000-4000-8000-000000000000",
      status: "Shipped",
    });
    expect(refused.headers.get("location")).toBe("/");
  });

  it("cancels (stock back), un-cancels (stock claimed), and explains a refused change", async () => {
    const { productId, orderId } = await placedOrder(3, 2);
    expect(await stockOf(productId)).toBe(1);
    const admin = await signedIn("admin@orders.test", "adminpass1");

    const cancelled = await admin.postForm("/admin/orders", {
      orderId,
      status: "Cancelled",
      returnTo: "/admin/orders",
    });
    expect(cancelled.headers.get("location")).toBe("/admin/orders");
    expect(await stockOf(productId)).toBe(3);
    expect((await html(admin, "/admin/orders")).text).toContain("Order status updated to Cancelled");

    await admin.postForm("/admin/orders", { orderId, status: "Pending", returnTo: `/admin/orders/${orderId}` });
    expect(await stockOf(productId)).toBe(1);

    await admin.postForm("/admin/orders", { orderId, status: "Cancelled" });
    await server.database.db("products").where({ id: productId }).update({ stock: 1 });
    const refused = await admin.postForm("/admin/orders", {
      orderId,
      status: "Delivered",
      returnTo: `/admin/orders/${orderId}`,
    });
    expect(refused.headers.get("location")).toBe(`/admin/orders/${orderId}`);
    const details = await html(admin, `/admin/orders/${orderId}`);
    expect(details.text).toContain("Cannot restore this order: not enough stock for Desk Watch");
    expect(details.text).toContain('class="status status--cancelled">Cancelled<');
    expect(await stockOf(productId)).toBe(1);
  });

  it("shows the dashboard figures, revenue without cancelled orders, and the latest orders", async () => {
    const admin = await signedIn("admin@orders.test", "adminpass1");
    const figures = await server.services.reports.dashboardFigures();
    const page = await html(admin, "/admin");
    expect(page.text).toContain("Total Revenue");
    expect(page.text).toContain("Cancelled orders are not counted");
    for (const [label, amount] of [
      ["Collected", figures.revenue.collected],
      ["To collect", figures.revenue.toCollect],
      ["Cancelled", figures.revenue.cancelled],
    ] as const) {
      expect(page.text).toContain(`<dt>${label}</dt><dd>${formatRupees(amount)}</dd>`);
    }
    expect(page.text).toContain(`>${figures.totalOrders}<`);
    expect(page.text).toContain(figures.latestOrders[0]!._id.slice(-8).toUpperCase());
    const sumOf = async (statuses: string[]) =>
      Number(
        (await server.database.db("orders").whereIn("status", statuses).sum({ sum: "total_price" }).first())?.sum ?? 0,
      );
    expect(figures.revenue.toCollect).toBeCloseTo(await sumOf(["Pending", "Shipped"]), 2);
    expect(figures.revenue.cancelled).toBeCloseTo(await sumOf(["Cancelled"]), 2);
    expect(figures.revenue.collected).toBeCloseTo(await sumOf(["Delivered"]), 2);
    expect(figures.revenue.total).toBeCloseTo(figures.revenue.collected + figures.revenue.toCollect, 2);
  });
});
