/**
 * Text from users and admins is inert on every page that shows it, stored or reflected, and the
 * API sends it as JSON text, never as a page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { server, signedIn, withSecurityStore } from "../support/security-store";

withSecurityStore();

async function page(client: TestClient, path: string) {
  const response = await client.get(path);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

// ---- Stored and reflected text is inert ----

const SCRIPT = "<script>alert(1)</script>";
const IMG = '"><img src=x onerror=alert(1)>';
/** Breaks out of a title, a JSON-LD script and single-quoted attributes, if anything lets it. */
const PAYLOAD = `X</title></script>${SCRIPT}${IMG}'`;

/**
 * The page holds the hostile text only as text: no script element but the store's own (with
 * the CSP nonce, or JSON-LD), no element with an event-handler attribute, no payload unescaped,
 * and JSON-LD that is still valid JSON.
 */
function expectInert(context: string, html: string, headers: Headers) {
  const nonce = headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
  // Tags and their attribute names, quoted values skipped (the store's HTML quotes every value).
  for (const [, name, attributes] of html.matchAll(
    /<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g,
  )) {
    const names = [...attributes!.matchAll(/([^\s=>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)].map((match) =>
      match[1]!.toLowerCase(),
    );
    const handlers = names.filter((attribute) => attribute.startsWith("on"));
    expect(handlers, `${context}: <${name} ${handlers.join(" ")}> has an event handler`).toEqual([]);
    if (name!.toLowerCase() === "script") {
      const legitimate =
        (nonce && attributes!.includes(`nonce="${nonce}"`)) || attributes!.includes('type="application/ld+json"');
      expect(legitimate, `${context}: a script element the store did not write: <script${attributes}>`).toBeTruthy();
    }
    expect(
      ["iframe", "object", "embed", "base"].includes(name!.toLowerCase()),
      `${context}: an element the store never writes: <${name}>`,
    ).toBe(false);
  }
  expect(html.includes(SCRIPT), `${context}: ${SCRIPT} unescaped`).toBe(false);
  expect(html.includes("<img src=x"), `${context}: <img src=x unescaped`).toBe(false);
  for (const [, json] of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    expect(() => JSON.parse(json!), `${context}: JSON-LD broken open`).not.toThrow();
  }
}

describe("hostile text in every text field", () => {
  it("(the check itself finds a live payload, so that its passing means something)", () => {
    const headers = new Headers({ "content-security-policy": "script-src 'nonce-abc'" });
    for (const live of [
      `<p>${SCRIPT}</p>`,
      "<p><img src=x onerror=alert(1)></p>",
      '<input value=""><img src="x" onerror="alert(1)">',
      "<script>alert(1)</script>",
    ]) {
      expect(() => expectInert("self-check", live, headers), live).toThrow();
    }
    expect(() =>
      expectInert(
        "self-check",
        '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&lt;script&gt;</p><script nonce="abc">1</script>',
        headers,
      ),
    ).not.toThrow();
  });

  let customer: TestClient;
  let admin: TestClient;
  let productId: string;
  let orderId: string;
  let customerId: string;

  beforeAll(async () => {
    // Everything goes in through the store's own forms, as an attacker would put it there.
    customer = new TestClient(server.baseUrl);
    const signup = await customer.postForm("/signup", {
      name: PAYLOAD,
      email: "hostile@security.test",
      password: "hostilepass1",
      confirmPassword: "hostilepass1",
    });
    expect(signup.status).toBe(303);
    customerId = (await server.database.db("users").where({ email: "hostile@security.test" }).first()).id;
    const profile = await customer.postForm("/profile/edit", {
      name: PAYLOAD,
      email: "hostile@security.test",
      phone: "",
      street: PAYLOAD,
      city: PAYLOAD,
      state: PAYLOAD,
      zipCode: "54000",
      country: PAYLOAD,
    });
    expect(profile.status).toBe(303);

    admin = await signedIn("admin@security.test", "adminpass1");
    const product = {
      name: PAYLOAD,
      brand: PAYLOAD.slice(0, 100),
      description: `${PAYLOAD} ${PAYLOAD}`,
      price: "25000",
      stock: "10",
      category: "Men",
    };
    // A script address is not an image address.
    const scriptImage = await admin.postForm("/admin/products/new", { ...product, imageUrl: "javascript:alert(1)" });
    expect(scriptImage.status).toBe(400);
    expect(await scriptImage.text()).toContain("Image URL must be a web address");
    const created = await admin.postForm("/admin/products/new", {
      ...product,
      imageUrl: 'https://img.example/a.png?"onerror="alert(1)',
    });
    expect(created.status).toBe(303);
    productId = (await server.database.db("products").where({ name: PAYLOAD }).first()).id;
    const [doomed] = await insertProducts(server, [{ name: `Doomed ${SCRIPT}`, stock: 5 }]);

    // Ordered with the hostile address (kept from the profile).
    await customer.postForm("/cart", { intent: "add", productId, quantity: "1", then: "cart" });
    const checkout = await customer.postForm("/checkout", {
      street: PAYLOAD,
      city: PAYLOAD,
      state: PAYLOAD,
      zipCode: "54000",
      country: PAYLOAD,
      phone: "0300-1234567",
      checkoutKey: "xss-order",
    });
    expect(checkout.status).toBe(303);
    orderId = checkout.headers.get("location")!.split("/").pop()!;

    // In the cart again, with a product that is then deleted (the cart names it once).
    await customer.postForm("/cart", { intent: "add", productId, quantity: "1", then: "cart" });
    await customer.postForm("/cart", { intent: "add", productId: doomed!, quantity: "1", then: "cart" });
    expect((await admin.postForm(`/admin/products/${doomed}/delete`, {})).status).toBe(303);

    // A contact message, every field hostile, for the admins' list.
    const sent = await new TestClient(server.baseUrl).postForm("/contact", {
      name: PAYLOAD,
      email: "hostile@security.test",
      subject: PAYLOAD,
      message: `${PAYLOAD}\n${PAYLOAD}`,
    });
    expect(sent.status).toBe(303);
  });

  it("is inert on every page a customer sees it", async () => {
    const paths = [
      "/",
      "/products",
      `/products?search=${encodeURIComponent("X")}`,
      `/products/${productId}`,
      "/cart",
      `/cart?confirm=remove&productId=${productId}`,
      "/checkout",
      `/order-success/${orderId}`,
      "/my-orders",
      "/profile",
      "/contact",
      "/profile/edit",
    ];
    for (const path of paths) {
      const { status, headers, html } = await page(customer, path);
      expect(status, path).toBe(200);
      expectInert(`customer ${path}`, html, headers);
    }
    // The hostile text is shown, as text (not dropped).
    const { html } = await page(customer, `/products/${productId}`);
    expect(html).toContain("X&lt;/title&gt;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/)![1]!);
    expect(jsonLd.name).toBe(PAYLOAD);
    expect(jsonLd.description).toBe(`${PAYLOAD} ${PAYLOAD}`);
  });

  it("is inert in the messages that name a product (added to cart, no longer available)", async () => {
    const added = await customer.postForm("/cart", {
      intent: "add",
      productId,
      quantity: "1",
      then: "stay",
      returnTo: "/products",
    });
    expect(added.headers.get("location")).toBe("/products");
    const { html, headers } = await page(customer, "/products");
    expect(html).toContain("added to your cart");
    expectInert("flash", html, headers);
    // The deleted product's notice was shown on the first look at the cart, in the test above;
    // a fresh shopper sees it here.
    const shopper = new TestClient(server.baseUrl);
    await shopper.postForm("/signup", {
      name: "Notice",
      email: "notice@security.test",
      password: "noticepass1",
      confirmPassword: "noticepass1",
    });
    const [gone] = await insertProducts(server, [{ name: `Gone ${SCRIPT}${IMG}`, stock: 5 }]);
    await shopper.postForm("/cart", { intent: "add", productId: gone!, quantity: "1", then: "cart" });
    await server.services.productRemoval.deleteProduct(gone!);
    const cart = await page(shopper, "/cart");
    expect(cart.html).toContain("no longer available");
    expectInert("removed notice", cart.html, cart.headers);
  });

  it("is inert on every admin page that shows it", async () => {
    const paths = [
      "/admin",
      "/admin/products",
      `/admin/products?search=${encodeURIComponent("X")}`,
      `/admin/products/${productId}/edit`,
      `/admin/products/${productId}/delete`,
      "/admin/orders",
      `/admin/orders?search=${encodeURIComponent("X")}`,
      `/admin/orders/${orderId}`,
      `/admin/orders/${orderId}/ship`,
      `/admin/orders/${orderId}/slip`,
      "/admin/orders/slips",
      "/admin/users",
      `/admin/users?search=${encodeURIComponent("hostile")}`,
      `/admin/users/${customerId}/role?role=admin`,
      `/admin/users/${customerId}/delete`,
      "/admin/messages",
    ];
    for (const path of paths) {
      const { status, headers, html } = await page(admin, path);
      expect(status, path).toBe(200);
      expectInert(`admin ${path}`, html, headers);
      expect(html.includes("alert(1)"), `${path} shows the hostile text`).toBe(true);
    }
  });

  it("is inert when reflected from the address or a refused form", async () => {
    const guest = new TestClient(server.baseUrl);
    for (const path of [
      `/products?search=${encodeURIComponent(PAYLOAD)}`,
      `/products?category=${encodeURIComponent(PAYLOAD)}&sort=${encodeURIComponent(PAYLOAD)}`,
      `/login?redirectTo=${encodeURIComponent(PAYLOAD)}`,
      `/signup?redirectTo=${encodeURIComponent(PAYLOAD)}`,
      `/no-such-page/${encodeURIComponent(PAYLOAD)}`,
      `/products/${encodeURIComponent(PAYLOAD)}`,
    ]) {
      const { headers, html } = await page(guest, path);
      expectInert(`guest ${path}`, html, headers);
    }
    for (const path of [
      `/admin/users?search=${encodeURIComponent(PAYLOAD)}`,
      `/admin/products?search=${encodeURIComponent(PAYLOAD)}`,
    ]) {
      const { headers, html } = await page(admin, path);
      expectInert(`admin ${path}`, html, headers);
    }
    const refusedSignup = await guest.postForm("/signup", {
      name: PAYLOAD,
      email: IMG,
      password: "x",
      confirmPassword: PAYLOAD,
      redirectTo: PAYLOAD,
    });
    expect(refusedSignup.status).toBe(400);
    expectInert("refused sign-up", await refusedSignup.text(), refusedSignup.headers);
    const refusedCheckout = await customer.postForm("/checkout", {
      street: PAYLOAD,
      city: PAYLOAD,
      state: "",
      zipCode: IMG,
      country: PAYLOAD,
      checkoutKey: IMG,
    });
    expect(refusedCheckout.status).toBe(400);
    expectInert("refused checkout", await refusedCheckout.text(), refusedCheckout.headers);
    const refusedContact = await guest.postForm("/contact", {
      name: PAYLOAD,
      email: PAYLOAD,
      subject: PAYLOAD,
      message: "",
    });
    expect(refusedContact.status).toBe(400);
    expectInert("refused contact message", await refusedContact.text(), refusedContact.headers);
    const refusedProduct = await admin.postForm("/admin/products/new", {
      name: PAYLOAD,
      description: PAYLOAD,
      price: IMG,
      stock: SCRIPT,
      category: PAYLOAD,
      imageUrl: IMG,
      brand: PAYLOAD,
    });
    expect(refusedProduct.status).toBe(400);
    expectInert("refused product", await refusedProduct.text(), refusedProduct.headers);
  });

  it("is sent by the API as JSON text, never as a page", async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/products/${productId}`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await response.json()).data.name).toBe(PAYLOAD);
    const missing = await fetch(`${server.baseUrl}/api/v1/${encodeURIComponent(SCRIPT)}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
