/**
 * Discount codes through the pages, as plain forms without JavaScript (docs/product.md, "Discount
 * codes"): checkout's Apply gives the summary and every field back, a refused code keeps the cart,
 * the order pages show the discount; the admin's codes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { TestClock, startTestServer, type TestServer } from "../support/test-server";
import { pageOf, signedInClient } from "../support/page-clients";

let server: TestServer;
let admin: TestClient;
const clock = new TestClock();

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const checkoutForm = { ...address, phone: "0300-1234567" };

beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.now });
  await insertUser(server, { name: "Desk Admin", email: "admin@promises.test", password: "adminpass1", role: "admin" });
  admin = await signedIn("admin@promises.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => clock.reset());

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

const html = pageOf;

let shopperNumber = 0;
/** A new customer signed in through the log-in page, with `quantity` of a new watch at `price` in the cart. */
async function shopperWithCart(price = 12_500, quantity = 1) {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@promises.test`;
  const id = await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  const [productId] = await insertProducts(server, [{ name: `Promise Watch ${shopperNumber}`, price, stock: 5 }]);
  const client = await signedIn(email, "shopperpass1");
  await client.postForm("/cart", { intent: "add", productId: productId!, quantity: String(quantity), then: "cart" });
  return { id, email, client, productId: productId! };
}

const ordersOf = (userId: string) => server.database.db("orders").where({ userId });
const cartCount = async (userId: string) =>
  Number(
    (
      await server.database
        .db("cart_items")
        .join("carts", "carts.id", "cart_items.cart_id")
        .where("carts.user_id", userId)
        .sum("quantity as count")
        .first()
    )?.count ?? 0,
  );

/** The `value` of an input, by its name. */
const valueOf = (page: string, name: string) =>
  new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"|<input[^>]*value="([^"]*)"[^>]*name="${name}"`)
    .exec(page)
    ?.slice(1)
    .find((value) => value !== undefined);

describe("checkout with a discount code", () => {
  it("applies a code without JavaScript: the summary recomputed, every field kept, nothing ordered", async () => {
    const shopper = await shopperWithCart(12_500, 1);
    const page = await html(shopper.client, "/checkout");
    expect(page.text).toContain('<label for="field-discountCode">Discount code</label>');
    // In the checkout form, after the address; the form's first submit button (the one Enter
    // presses in a field) places the order.
    const form = page.text.slice(page.text.indexOf('id="checkout-form"'));
    const firstButton = /<button type="submit"[^>]*>([^<]*)<\/button>/.exec(form)!;
    expect(firstButton[1]).toBe("Place Order");
    expect(firstButton[0]).not.toContain('name="intent"');
    const apply = /<button type="submit"[^>]*>Apply<\/button>/.exec(form)?.[0] ?? "";
    expect(apply).toContain('name="intent"');
    expect(apply).toContain('value="apply"');
    const checkoutKey = valueOf(page.text, "checkoutKey")!;

    const applied = await shopper.client.postForm("/checkout", {
      ...checkoutForm,
      street: "House 7, Street 3",
      checkoutKey,
      discountCode: " first10 ",
      intent: "apply",
    });
    expect(applied.status).toBe(200);
    const text = await applied.text();
    expect(text).toContain("<dt>Subtotal</dt><dd>Rs. 12,500</dd>");
    expect(text).toContain("<dt>Discount (FIRST10)</dt>");
    expect(text).toContain("−Rs. 1,250");
    expect(text).toContain("<dt>Shipping</dt><dd>Free</dd>");
    expect(text).toContain('<dd class="cart__total">Rs. 11,250</dd>');
    expect(valueOf(text, "street")).toBe("House 7, Street 3");
    expect(valueOf(text, "city")).toBe("Lahore");
    expect(valueOf(text, "phone")).toBe("0300-1234567");
    expect(valueOf(text, "checkoutKey")).toBe(checkoutKey);
    expect(valueOf(text, "discountCode")).toBe(" first10 ");
    expect(await ordersOf(shopper.id)).toHaveLength(0);
    expect(await cartCount(shopper.id)).toBe(1);

    // Place Order from that page: the discount is taken, the success page and the order pages show it.
    const placed = await shopper.client.postForm("/checkout", {
      ...checkoutForm,
      checkoutKey,
      discountCode: "first10",
    });
    expect(placed.status).toBe(303);
    const orderId = placed.headers.get("location")!.split("/").pop()!;
    expect((await ordersOf(shopper.id))[0]).toMatchObject({
      discountCode: "FIRST10",
      discountAmount: 1250,
      totalPrice: 11_250,
    });
    const success = await html(shopper.client, `/order-success/${orderId}`);
    expect(success.text).toContain("<dt>Discount (FIRST10)</dt>");
    expect(success.text).toContain("Pay Rs. 11,250 in cash");
    const myOrders = await html(shopper.client, "/my-orders");
    expect(myOrders.text).toContain("Discount (FIRST10) −Rs. 1,250");
    expect(myOrders.text).toContain("Total: Rs. 11,250");
    const ownPage = await html(shopper.client, `/my-orders/${orderId}`);
    expect(ownPage.text).toContain("Subtotal Rs. 12,500");
    expect(ownPage.text).toContain("Discount (FIRST10) −Rs. 1,250");
    expect(ownPage.text).toContain("Total: Rs. 11,250");
    const details = await html(admin, `/admin/orders/${orderId}`);
    expect(details.text).toContain("<dt>Discount (FIRST10)</dt><dd>−Rs. 1,250</dd>");
    const slip = await html(admin, `/admin/orders/${orderId}/slip`);
    expect(slip.text).toContain("Subtotal Rs. 12,500, discount (FIRST10) −Rs. 1,250");
    expect(slip.text).toContain("Cash on Delivery: collect Rs. 11,250");
  });

  it("refuses a bad code beside its field, with the cart and every field kept; an empty Apply removes the discount", async () => {
    const shopper = await shopperWithCart(5000, 2);
    for (const intent of ["apply", ""]) {
      const refused = await shopper.client.postForm("/checkout", {
        ...checkoutForm,
        checkoutKey: `k-bad-${intent}`,
        discountCode: "NOPE10",
        ...(intent ? { intent } : {}),
      });
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text).toMatch(
        /<p class="field-error" id="field-discountCode-error" role="alert">This discount code is not valid<\/p>/,
      );
      expect(text).toContain('aria-invalid="true"');
      expect(valueOf(text, "discountCode")).toBe("NOPE10");
      expect(valueOf(text, "street")).toBe("12 Canal Road");
      expect(text).not.toContain("<dt>Discount");
      expect(text).toContain('<dd class="cart__total">Rs. 10,000</dd>');
    }
    expect(await ordersOf(shopper.id)).toHaveLength(0);
    expect(await cartCount(shopper.id)).toBe(2);

    const cleared = await shopper.client.postForm("/checkout", {
      ...checkoutForm,
      checkoutKey: "k-clear",
      discountCode: "",
      intent: "apply",
    });
    expect(cleared.status).toBe(200);
    expect(await cleared.text()).not.toContain("<dt>Discount");
  });

  it("keeps the discount in the summary while another field is fixed, and refuses FIRST10 on a second order", async () => {
    const shopper = await shopperWithCart(2000, 1);
    const missingCity = await shopper.client.postForm("/checkout", {
      ...checkoutForm,
      city: "",
      checkoutKey: "k-city",
      discountCode: "FIRST10",
    });
    expect(missingCity.status).toBe(400);
    const text = await missingCity.text();
    expect(text).toContain("City is required");
    expect(text).toContain("<dt>Discount (FIRST10)</dt>");
    expect(text).toContain('<dd class="cart__total">Rs. 1,800</dd>');

    expect(
      (await shopper.client.postForm("/checkout", { ...checkoutForm, checkoutKey: "k-first", discountCode: "FIRST10" }))
        .status,
    ).toBe(303);
    await shopper.client.postForm("/cart", {
      intent: "add",
      productId: shopper.productId,
      quantity: "1",
      then: "cart",
    });
    for (const intent of ["apply", ""]) {
      const second = await shopper.client.postForm("/checkout", {
        ...checkoutForm,
        checkoutKey: "k-second",
        discountCode: "FIRST10",
        ...(intent ? { intent } : {}),
      });
      expect(second.status).toBe(400);
      expect(await second.text()).toContain("This code is only for your first order");
    }
    expect(await ordersOf(shopper.id)).toHaveLength(1);
    expect(await cartCount(shopper.id)).toBe(1);
  });
});

describe("the admin's discount codes", () => {
  it("lists the codes with their uses, creates one (times in Pakistan), refuses a duplicate beside the code, edits and deactivates", async () => {
    const list = await html(admin, "/admin/discounts");
    expect(list.status).toBe(200);
    expect(list.text).toContain("FIRST10");
    expect(list.text).toContain("10% off");
    expect(list.text).toContain("First order only");
    expect((await html(admin, "/admin")).text).toContain('href="/admin/discounts"');

    const created = await admin.postForm("/admin/discounts/new", {
      code: "eid500",
      type: "fixed",
      value: "500",
      active: "on",
      startsAt: "2026-12-10T09:00",
      endsAt: "2026-12-20T21:30",
      maxUses: "50",
    });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe("/admin/discounts");
    const row = await server.database.db("discount_codes").where({ code: "EID500" }).first();
    expect(row).toMatchObject({
      type: "fixed",
      value: 500,
      firstOrderOnly: false,
      active: true,
      maxUses: 50,
      startsAt: new Date("2026-12-10T04:00:00Z"),
      endsAt: new Date("2026-12-20T16:30:00Z"),
    });
    const after = await html(admin, "/admin/discounts");
    expect(after.text).toContain("Discount code EID500 created");
    expect(after.text).toContain("Rs. 500 off");
    expect(after.text).toContain("0 of 50");

    const duplicate = await admin.postForm("/admin/discounts/new", { code: "Eid500", type: "percent", value: "5" });
    expect(duplicate.status).toBe(409);
    const duplicateText = await duplicate.text();
    expect(duplicateText).toMatch(/id="field-code-error"[^>]*>A discount code with this name already exists</);
    expect(valueOf(duplicateText, "code")).toBe("Eid500");

    const invalid = await admin.postForm("/admin/discounts/new", {
      code: "X",
      type: "percent",
      value: "95",
      endsAt: "soon",
    });
    expect(invalid.status).toBe(400);
    const invalidText = await invalid.text();
    expect(invalidText).toContain("Code must be 3 to 20 letters and digits");
    expect(invalidText).toContain("A percentage must be between 1 and 90");
    expect(invalidText).toContain("Ends must be a date and time");

    const edit = await html(admin, `/admin/discounts/${row.id}/edit`);
    expect(valueOf(edit.text, "startsAt")).toBe("2026-12-10T09:00");
    expect(valueOf(edit.text, "endsAt")).toBe("2026-12-20T21:30");
    const saved = await admin.postForm(`/admin/discounts/${row.id}/edit`, {
      code: "EID500",
      type: "fixed",
      value: "750",
      firstOrderOnly: "on",
      active: "on",
      startsAt: "",
      endsAt: "",
      maxUses: "",
    });
    expect(saved.status).toBe(303);
    expect(await server.database.db("discount_codes").where({ id: row.id }).first()).toMatchObject({
      value: 750,
      firstOrderOnly: true,
      startsAt: null,
      endsAt: null,
      maxUses: null,
    });

    const deactivated = await admin.postForm("/admin/discounts", { intent: "deactivate", discountId: row.id });
    expect(deactivated.status).toBe(303);
    expect((await html(admin, "/admin/discounts")).text).toContain("Discount code EID500 deactivated");
    expect((await server.database.db("discount_codes").where({ id: row.id }).first()).active).toBe(false);
    expect((await html(admin, "/admin/discounts/00000000-0000-4000-8000-000000000000/edit")).status).toBe(404);
  });
});
