/**
 * Returns through the pages, as plain forms without JavaScript (docs/product.md, "Returns"): the
 * customer's return form and the admin's return pages.
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

const stockOf = async (id: string) => (await server.database.db("products").where({ id }).first("stock")).stock;

describe("returns through the pages", () => {
  /** A delivered order of two watches (2 and 1), placed through checkout, with its customer. */
  async function deliveredOrder() {
    const shopper = await shopperWithCart(4000, 2);
    const [second] = await insertProducts(server, [{ name: `Second Watch ${shopperNumber}`, price: 1500, stock: 5 }]);
    await shopper.client.postForm("/cart", { intent: "add", productId: second!, quantity: "1", then: "cart" });
    const placed = await shopper.client.postForm("/checkout", {
      ...checkoutForm,
      checkoutKey: `k-ret-${shopperNumber}`,
    });
    const orderId = placed.headers.get("location")!.split("/").pop()!;
    await server.services.fulfilment.updateStatus(orderId, { status: "Delivered" });
    return { ...shopper, orderId, secondId: second! };
  }

  it("lets the owner ask for a return with a plain form; the admin approves it and records its arrival with the refund", async () => {
    const { client, orderId, productId, secondId } = await deliveredOrder();
    const myOrders = await html(client, "/my-orders");
    expect(myOrders.text).toContain(`href="/my-orders/${orderId}/return"`);
    expect(myOrders.text).toContain("Request a return");
    // The order's own page offers it too, and shows no returns yet.
    const ownPage = await html(client, `/my-orders/${orderId}`);
    expect(ownPage.text).toContain(`href="/my-orders/${orderId}/return"`);
    expect(ownPage.text).toContain("Request a return");
    expect(ownPage.text).not.toContain("order-returns");

    const form = await html(client, `/my-orders/${orderId}/return`);
    expect(form.status).toBe(200);
    // The form leads back to the order's page.
    expect(form.text).toMatch(new RegExp(`href="/my-orders/${orderId}"[^>]*>← Back to order`));
    expect(form.text).toContain(`<select id="field-quantity-${productId}" name="quantity-${productId}">`);
    expect(form.text).toContain('<option value="2">Return 2</option>');
    for (const reason of ["Changed my mind", "Damaged or defective", "Not as described", "Wrong item", "Other"]) {
      expect(form.text).toContain(`value="${reason}"`);
    }

    const nothing = await client.postForm(`/my-orders/${orderId}/return`, {
      [`quantity-${productId}`]: "0",
      [`quantity-${secondId}`]: "0",
      reason: "Wrong item",
    });
    expect(nothing.status).toBe(400);
    const nothingText = await nothing.text();
    expect(nothingText).toContain("Choose at least one watch to return");
    expect(/<input type="radio"[^>]*value="Wrong item"[^>]*>/.exec(nothingText)?.[0]).toContain('checked=""');

    const tooMany = await client.postForm(`/my-orders/${orderId}/return`, {
      [`quantity-${productId}`]: "5",
      reason: "Wrong item",
      note: "Kept note",
    });
    expect(tooMany.status).toBe(400);
    const tooManyText = await tooMany.text();
    expect(tooManyText).toMatch(new RegExp(`id="field-quantity-${productId}-error"[^>]*>You can return at most 2 of`));
    expect(tooManyText).toContain("Kept note");

    const requested = await client.postForm(`/my-orders/${orderId}/return`, {
      [`quantity-${productId}`]: "1",
      [`quantity-${secondId}`]: "0",
      reason: "Damaged or defective",
      note: "Scratched glass",
    });
    expect(requested.status).toBe(303);
    expect(requested.headers.get("location")).toBe(`/my-orders/${orderId}`);
    const afterRequest = await html(client, `/my-orders/${orderId}`);
    expect(afterRequest.text).toContain(`Return requested for order #${orderId.slice(-8).toUpperCase()}`);
    expect(afterRequest.text).toContain("status--return-requested");
    expect(afterRequest.text).toContain("Refund on arrival: Rs. 4,000");
    // A return under way: no second one offered, on the order's page or in My Orders.
    expect(afterRequest.text).not.toContain(`href="/my-orders/${orderId}/return"`);
    const listAfter = await html(client, "/my-orders");
    expect(listAfter.text).toContain("status--return-requested");
    expect(listAfter.text).not.toContain(`href="/my-orders/${orderId}/return"`);
    expect((await html(client, `/order-success/${orderId}`)).text).toContain("status--return-requested");
    const busy = await html(client, `/my-orders/${orderId}/return`);
    expect(busy.text).toContain("This order already has a return in progress");

    const returnsPage = await html(admin, "/admin/returns");
    const returnId = /href="\/admin\/returns\/([0-9a-f-]{36})"/.exec(returnsPage.text)![1]!;
    expect(returnsPage.text).toContain("Damaged or defective");
    expect((await html(admin, "/admin/returns?status=Approved")).text).toContain("No returns found");
    expect((await html(admin, "/admin/returns?status=Requested")).text).toContain(`/admin/returns/${returnId}`);

    const details = await html(admin, `/admin/returns/${returnId}`);
    expect(details.text).toContain("Scratched glass");
    expect(details.text).toContain("Approve Return");
    // Whom to call and where to fetch the watch from, for arranging the pick-up.
    expect(details.text).toContain('<dt>Mobile Number</dt><dd><a href="tel:+923001234567">0300-1234567</a></dd>');
    expect(details.text).toContain(
      '<dt>Pick up from</dt><dd><address class="order-address">12 Canal Road, Lahore, Punjab 54000, Pakistan</address></dd>',
    );
    // The order's page names each return's refund.
    expect((await html(admin, `/admin/orders/${orderId}`)).text).toContain("Refund Rs. 4,000");
    expect((await admin.postForm(`/admin/returns/${returnId}`, { intent: "approve" })).status).toBe(303);
    const approved = await html(admin, `/admin/returns/${returnId}`);
    expect(approved.text).toContain("Return marked Approved");
    expect(approved.text).toContain("Mark Received and Refunded Rs. 4,000");

    const noReference = await admin.postForm(`/admin/returns/${returnId}`, { intent: "receive", method: "Easypaisa" });
    expect(noReference.status).toBe(400);
    expect(await noReference.text()).toContain("Enter the transaction&#x27;s reference");
    const stockBefore = await stockOf(productId);
    const received = await admin.postForm(`/admin/returns/${returnId}`, {
      intent: "receive",
      method: "Easypaisa",
      reference: "EP-5521",
    });
    expect(received.status).toBe(303);
    expect(await stockOf(productId)).toBe(stockBefore + 1);
    const again = await admin.postForm(`/admin/returns/${returnId}`, { intent: "receive", method: "Cash" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This return is received: its status can no longer change");
    expect(await stockOf(productId)).toBe(stockBefore + 1);
    expect((await html(admin, `/admin/orders/${orderId}`)).text).toContain("Refund Rs. 4,000 (paid by Easypaisa)");

    const refunded = await html(client, "/my-orders");
    expect(refunded.text).toContain("Refunded Rs. 4,000 by Easypaisa, reference EP-5521");
    // The rest of the order can still be returned within the week.
    expect(refunded.text).toContain(`href="/my-orders/${orderId}/return"`);
    const refundedPage = await html(client, `/my-orders/${orderId}`);
    expect(refundedPage.text).toContain("Refunded Rs. 4,000 by Easypaisa, reference EP-5521");
    expect(refundedPage.text).toContain(`href="/my-orders/${orderId}/return"`);
  });

  it("shows the customer a rejection and its reason", async () => {
    const { client, orderId, productId } = await deliveredOrder();
    await client.postForm(`/my-orders/${orderId}/return`, {
      [`quantity-${productId}`]: "1",
      reason: "Changed my mind",
    });
    const returnId = (await server.database.db("order_returns").where({ orderId }).first()).id;
    const missing = await admin.postForm(`/admin/returns/${returnId}`, { intent: "reject", rejectionReason: "" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Say why the return is rejected: the customer reads it");
    expect(
      (await admin.postForm(`/admin/returns/${returnId}`, { intent: "reject", rejectionReason: "The strap is worn." }))
        .status,
    ).toBe(303);
    for (const path of ["/my-orders", `/my-orders/${orderId}`]) {
      const page = await html(client, path);
      expect(page.text).toContain("status--return-rejected");
      expect(page.text).toContain("Not accepted: The strap is worn.");
    }
  });

  it("says why no return can be asked for, and shows the 404 page to anyone but the owner", async () => {
    const { client, orderId, productId } = await deliveredOrder();
    clock.advance(7 * 24 * 60 * 60 * 1000);
    const late = await html(client, `/my-orders/${orderId}/return`);
    expect(late.status).toBe(200);
    expect(late.text).toContain("Returns are accepted within 7 days of delivery");
    expect(late.text).not.toContain("<select");
    expect((await html(client, "/my-orders")).text).not.toContain(`href="/my-orders/${orderId}/return"`);
    expect((await html(client, `/my-orders/${orderId}`)).text).not.toContain(`href="/my-orders/${orderId}/return"`);
    const post = await client.postForm(`/my-orders/${orderId}/return`, {
      [`quantity-${productId}`]: "1",
      reason: "Other",
    });
    expect(post.status).toBe(409);
    expect(await post.text()).toContain("Returns are accepted within 7 days of delivery");

    const other = await shopperWithCart();
    for (const visitor of [other.client, admin]) {
      expect((await html(visitor, `/my-orders/${orderId}/return`)).status).toBe(404);
      const refused = await visitor.postForm(`/my-orders/${orderId}/return`, {
        [`quantity-${productId}`]: "1",
        reason: "Other",
      });
      expect(refused.status).toBe(404);
    }
    expect(await server.database.db("order_returns").where({ orderId })).toHaveLength(0);
  });
});
