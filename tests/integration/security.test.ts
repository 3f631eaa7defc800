/**
 * Security details, each shown on the running store: text from users and admins is inert on
 * every page that shows it; no open redirect; cross-site form posts refused on every action;
 * log-in and sign-up reveal no more than the store's messages and are rate limited; security
 * headers and cookie flags; pages for a signed-in user are never stored by caches.
 * (Session regeneration at log-in and the basic cookie flags are in accounts-pages.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../../app/routes";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { loadServerBuild, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

/** A user with a cheap bcrypt cost, for the many log-ins below (log-in accepts any cost). */
async function insertCheapUser(
  target: TestServer,
  user: { name: string; email: string; password: string; role?: "admin" | "customer" },
) {
  await target.database.db("users").insert({
    name: user.name,
    email: user.email,
    passwordHash: await hashPassword(user.password, 4),
    role: user.role ?? "customer",
  });
}

beforeAll(async () => {
  server = await startTestServer();
  await insertCheapUser(server, {
    name: "Security Admin",
    email: "admin@security.test",
    password: "adminpass1",
    role: "admin",
  });
});
afterAll(async () => {
  await server?.close();
});

async function signedIn(email: string, password: string, target = server) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

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

// ---- Redirects stay on the site ----

describe("no open redirect", () => {
  const HOSTILE_TARGETS = [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e%2e//evil.example",
    " //evil.example",
    "/\t/evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
  ];
  /** A Location stays on this site: a path, not an address a browser would read as another host. */
  const expectSameSite = (context: string, location: string | null) => {
    expect(location, context).toBeTruthy();
    expect(
      location!.startsWith("/") && !location!.startsWith("//") && !location!.startsWith("/\\"),
      `${context}: ${location}`,
    ).toBe(true);
    expect(new URL(location!, "https://shop.example").origin, `${context}: ${location}`).toBe("https://shop.example");
  };

  it("after log-in and sign-up", async () => {
    await insertCheapUser(server, { name: "Redirect", email: "redirect@security.test", password: "redirectpass1" });
    for (const redirectTo of HOSTILE_TARGETS) {
      const login = await new TestClient(server.baseUrl).postForm("/login", {
        email: "redirect@security.test",
        password: "redirectpass1",
        redirectTo,
      });
      expect(login.status).toBe(303);
      expectSameSite(`log-in ${JSON.stringify(redirectTo)}`, login.headers.get("location"));
    }
    let count = 0;
    for (const redirectTo of HOSTILE_TARGETS) {
      count += 1;
      const signup = await new TestClient(server.baseUrl).postForm("/signup", {
        name: "Redirected",
        email: `redirected${count}@security.test`,
        password: "redirectpass1",
        confirmPassword: "redirectpass1",
        redirectTo,
      });
      expect(signup.status).toBe(303);
      expectSameSite(`sign-up ${JSON.stringify(redirectTo)}`, signup.headers.get("location"));
    }
  });

  it("after Add to Cart (returnTo, for a guest and a shopper) and an order status change (returnTo)", async () => {
    const [productId] = await insertProducts(server, [{ name: "Redirect Watch", stock: 100 }]);
    const shopper = await signedIn("redirect@security.test", "redirectpass1");
    const admin = await signedIn("admin@security.test", "adminpass1");
    const shopperId = (await server.database.db("users").where({ email: "redirect@security.test" }).first("id")).id;
    await server.services.cart.addItem(shopperId, { productId: productId!, quantity: 1 });
    const shipped = await server.services.checkout.placeOrder(shopperId, {
      address: { street: "1 Safe Street", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
    });
    for (const returnTo of HOSTILE_TARGETS) {
      const guest = await new TestClient(server.baseUrl).postForm("/cart", {
        intent: "add",
        productId: productId!,
        quantity: "1",
        returnTo,
      });
      const guestLocation = guest.headers.get("location")!;
      expect(guestLocation.startsWith("/login?redirectTo=")).toBe(true);
      expectSameSite(
        `guest add ${JSON.stringify(returnTo)}`,
        decodeURIComponent(guestLocation.slice("/login?redirectTo=".length)),
      );
      const added = await shopper.postForm("/cart", {
        intent: "add",
        productId: productId!,
        quantity: "1",
        then: "stay",
        returnTo,
      });
      expectSameSite(`add ${JSON.stringify(returnTo)}`, added.headers.get("location"));
      const status = await admin.postForm("/admin/orders", {
        orderId: "00000000-0000-4000-8000-000000000000",
        status: "Shipped",
        returnTo,
      });
      expectSameSite(`status ${JSON.stringify(returnTo)}`, status.headers.get("location"));
      const ship = await admin.postForm(`/admin/orders/${shipped._id}/ship`, {
        courier: "TCS",
        trackingNumber: "TCS-0001",
        shipUnconfirmed: "true",
        returnTo,
      });
      expect(ship.status).toBe(303);
      expectSameSite(`ship ${JSON.stringify(returnTo)}`, ship.headers.get("location"));
    }
  });
});

// ---- Cross-site form posts ----

type ConfigRoute = { path?: string; index?: boolean; file: string; children?: ConfigRoute[] };
function configRoutes(routes: ConfigRoute[], parent = ""): { path: string; file: string }[] {
  return routes.flatMap((route) => {
    const path = route.index || !route.path ? parent : `${parent}/${route.path}`.replace(/\/+/g, "/");
    return [
      ...(route.path !== undefined || route.index ? [{ path: path || "/", file: route.file }] : []),
      ...configRoutes(route.children ?? [], path),
    ];
  });
}

describe("cross-site form posts", () => {
  it("are refused with 403 on every page with a form action, changing nothing, signed in or not", async () => {
    const build = await (await loadServerBuild()).loadPageBuild();
    const actions = configRoutes(routeConfig as ConfigRoute[]).filter(
      ({ file }) =>
        typeof (build.routes[file.replace(/\.[jt]sx?$/, "")]?.module as { action?: unknown })?.action === "function",
    );
    expect(actions.length).toBeGreaterThanOrEqual(12);
    const [productId] = await insertProducts(server, [{ name: "Cross Site Watch", stock: 5 }]);
    const admin = await signedIn("admin@security.test", "adminpass1");
    const { host } = new URL(server.baseUrl);
    const attacks: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: `http://${host}.evil.example` },
      { origin: `https://${host}` },
      { origin: "null", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const { path } of actions) {
      const concrete = path.replace(/:(\w+)/g, (_match, name: string) =>
        name === "productId" ? productId! : "00000000-0000-4000-8000-000000000000",
      );
      for (const headers of attacks) {
        const before = await databaseFingerprint(server);
        // Without the TestClient's own Origin header: what a page on another site would send.
        const response = await fetch(server.baseUrl + concrete, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: admin.cookieHeader(), ...headers },
          body: new URLSearchParams({
            intent: "clear",
            name: "Evil",
            email: "evil@example.com",
            status: "Cancelled",
            role: "admin",
          }).toString(),
          redirect: "manual",
        });
        expect(response.status, `${concrete} ${JSON.stringify(headers)}`).toBe(403);
        expect(await databaseFingerprint(server), `${concrete} ${JSON.stringify(headers)}`).toEqual(before);
      }
    }
    // Six posts and twelve fingerprints (one statement each) for every page with an action: more time as pages are added.
  }, 90_000);

  it("are also refused with Origin: null from a browser that sends nothing else (a sandboxed frame)", async () => {
    const response = await fetch(`${server.baseUrl}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
      body: "email=admin%40security.test&password=adminpass1",
      redirect: "manual",
    });
    expect(response.status).toBe(403);
  });
});

// ---- Accounts: enumeration and rate limits ----

describe("no user enumeration beyond the store's messages", () => {
  it("answers a wrong password and an unknown email on the log-in page alike", async () => {
    await insertUser(server, { name: "Known Person", email: "known@security.test", password: "knownpass1" });
    const normalize = (html: string, email: string) =>
      html
        .replaceAll(email, "EMAIL")
        .replace(/nonce="[^"]*"/g, "")
        .replace(/"requestId":"[^"]*"/g, "");
    const wrong = await new TestClient(server.baseUrl).postForm("/login", {
      email: "known@security.test",
      password: "wrong-password",
    });
    const unknown = await new TestClient(server.baseUrl).postForm("/login", {
      email: "unknown@security.test",
      password: "wrong-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [wrongHtml, unknownHtml] = [
      normalize(await wrong.text(), "known@security.test"),
      normalize(await unknown.text(), "unknown@security.test"),
    ];
    expect(wrongHtml).toContain("Incorrect email or password");
    expect(unknownHtml).toBe(wrongHtml);
  });

  it("takes about as long for an unknown email as for a wrong password (a decoy hash is checked)", async () => {
    const client = new TestClient(server.baseUrl);
    const time = async (email: string) => {
      const started = performance.now();
      const response = await client.api("POST", "/auth/login", { body: { email, password: "wrong-password" } });
      expect(response.status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      wrong.push(await time("known@security.test"));
      unknown.push(await time(`nobody${round}@security.test`));
    }
    // Without the decoy an unknown email answers in a millisecond and a wrong password in a
    // quarter of a second; the bound leaves room for a busy machine.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.4);
  });

  it("says only that an email is taken at sign-up (409, as the API promises), never whose it is", async () => {
    const page = await new TestClient(server.baseUrl).postForm("/signup", {
      name: "Someone Else",
      email: "KNOWN@security.test",
      password: "password123",
      confirmPassword: "password123",
    });
    expect(page.status).toBe(409);
    const html = await page.text();
    expect(html).toContain("An account with this email already exists");
    expect(html).not.toContain("Known Person");
    const api = await new TestClient(server.baseUrl).api("POST", "/auth/register", {
      body: { name: "Someone Else", email: "known@security.test", password: "password123" },
    });
    expect(api.status).toBe(409);
    expect(api.body).toEqual({ success: false, message: "An account with this email already exists" });
  });
});

describe("rate limits", () => {
  it("stop guessing one account's password on the log-in page: 429 with Retry-After, even for the right password", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" });
    try {
      await insertCheapUser(limited, { name: "Target", email: "target@security.test", password: "targetpass1" });
      const client = new TestClient(limited.baseUrl);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect(
          (await client.postForm("/login", { email: "target@security.test", password: `guess-${attempt}` })).status,
        ).toBe(401);
      }
      const refused = await client.postForm("/login", { email: "TARGET@security.test", password: "targetpass1" });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refused.text()).toContain("Too many log-in attempts. Please wait a few minutes and try again.");
      expect(refused.headers.get("set-cookie") ?? "").not.toContain(SESSION_COOKIE);
    } finally {
      await limited.close();
    }
  });

  it("stop one address trying many accounts at log-in (30 a quarter hour)", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" });
    try {
      const client = new TestClient(limited.baseUrl);
      // Three accounts with cheap hashes, ten wrong guesses each (the per-email limit): 30 from one address.
      for (const account of [0, 1, 2])
        await insertCheapUser(limited, {
          name: "Sprayed",
          email: `spray${account}@security.test`,
          password: "sprayedpass1",
        });
      for (let attempt = 0; attempt < 30; attempt += 1) {
        const email = `spray${attempt % 3}@security.test`;
        expect((await client.api("POST", "/auth/login", { body: { email, password: "password1" } })).status).toBe(401);
      }
      const refused = await client.postForm("/login", { email: "another@security.test", password: "password1" });
      expect(refused.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it("stop mass sign-ups from one address (10 an hour), on the page and the API alike", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" });
    try {
      const client = new TestClient(limited.baseUrl);
      for (let index = 0; index < 10; index += 1) {
        const response =
          index % 2 === 0
            ? (
                await client.api("POST", "/auth/register", {
                  body: { name: "Mass", email: `mass${index}@security.test`, password: "password123" },
                })
              ).status
            : (
                await new TestClient(limited.baseUrl).postForm("/signup", {
                  name: "Mass",
                  email: `mass${index}@security.test`,
                  password: "password123",
                  confirmPassword: "password123",
                })
              ).status;
        expect(response).toBeLessThan(400);
      }
      const page = await client.postForm("/signup", {
        name: "Mass",
        email: "mass10@security.test",
        password: "password123",
        confirmPassword: "password123",
      });
      expect(page.status).toBe(429);
      expect(await page.text()).toContain("Too many sign-ups from this network. Please try again later.");
      const api = await client.api("POST", "/auth/register", {
        body: { name: "Mass", email: "mass11@security.test", password: "password123" },
      });
      expect(api.status).toBe(429);
      expect(api.body).toEqual({
        success: false,
        message: "Too many sign-ups from this network. Please try again later.",
      });
      // Enumerating taken emails through sign-up counts against the same limit.
      const taken = await client.api("POST", "/auth/register", {
        body: { name: "Mass", email: "mass0@security.test", password: "password123" },
      });
      expect(taken.status).toBe(429);
      expect(
        await limited.database.db("users").whereIn("email", ["mass10@security.test", "mass11@security.test"]),
      ).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

// ---- Headers and cookies ----

describe("security headers", () => {
  const expectPageHeaders = (context: string, headers: Headers) => {
    const csp = headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'self'",
      "script-src 'self' 'nonce-",
      "style-src 'self'",
      "img-src 'self' data: https:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp, `${context}: ${directive}`).toContain(directive);
    }
    expect(csp, context).not.toContain("unsafe-inline");
    expect(csp, context).not.toContain("unsafe-eval");
    expect(headers.get("x-content-type-options"), context).toBe("nosniff");
    expect(headers.get("x-frame-options"), context).toBe("SAMEORIGIN");
    expect(headers.get("referrer-policy"), context).toBe("strict-origin-when-cross-origin");
    expect(headers.get("strict-transport-security"), context).toMatch(/max-age=\d{7,}/);
    expect(headers.get("cross-origin-opener-policy"), context).toBe("same-origin");
    expect(headers.get("x-powered-by"), context).toBeNull();
  };

  it("are on every kind of answer: pages, redirects, the 404 page, refusals, the API and static files", async () => {
    const guest = new TestClient(server.baseUrl);
    for (const path of ["/", "/products", "/login", "/profile", "/no-such-page", "/robots.txt", "/favicon.svg"]) {
      expectPageHeaders(path, (await guest.get(path)).headers);
    }
    expectPageHeaders(
      "cross-site post",
      (await guest.postForm("/login", {}, { origin: "https://evil.example" })).headers,
    );
    expectPageHeaders("refused form", (await guest.postForm("/login", { email: "", password: "" })).headers);
    const api = await fetch(`${server.baseUrl}/api/v1/products`);
    expectPageHeaders("API", api.headers);
    // A read without a token is the same for everyone: a cache may keep it, but must ask again.
    expect(api.headers.get("cache-control")).toBe("no-cache");
    const signIn = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@security.test", password: "adminpass1" }),
    });
    expect(signIn.headers.get("cache-control")).toBe("no-store");
    const { token } = (await signIn.json()).data;
    const withToken = await fetch(`${server.baseUrl}/api/v1/products`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.headers.get("cache-control")).toBe("no-store");
  });

  it("keep pages for a signed-in user out of every cache; public pages may be cached", async () => {
    const admin = await signedIn("admin@security.test", "adminpass1");
    for (const path of [
      "/profile",
      "/my-orders",
      "/cart",
      "/checkout",
      "/admin",
      "/admin/users",
      "/",
      "/products",
      "/profile.data",
      "/admin/users.data",
    ]) {
      const response = await admin.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toMatch(/no-store/);
      expect(response.headers.get("cache-control"), path).toMatch(/private/);
    }
    const refused = await admin.postForm("/profile/edit", { name: "", email: "" });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("cache-control")).toMatch(/no-store/);
    const guest = await new TestClient(server.baseUrl).get("/products");
    expect(guest.headers.get("cache-control") ?? "").not.toMatch(/no-store/);
  });

  it("mark the session cookie Secure behind an HTTPS proxy, and never readable by scripts", async () => {
    const proxied = await startTestServer({ TRUST_PROXY: "1", PUBLIC_URL: "https://shop.example.pk" });
    try {
      await insertCheapUser(proxied, { name: "Proxied", email: "proxied@security.test", password: "proxiedpass1" });
      const response = await fetch(`${proxied.baseUrl}/login`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://shop.example.pk",
          "x-forwarded-proto": "https",
          "x-forwarded-host": "shop.example.pk",
        },
        body: "email=proxied%40security.test&password=proxiedpass1",
        redirect: "manual",
      });
      expect(response.status).toBe(303);
      const cookie = response.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=`));
      for (const flag of [/;\s*Secure/i, /;\s*HttpOnly/i, /;\s*SameSite=Lax/i, /;\s*Path=\//i])
        expect(cookie).toMatch(flag);
      // The cookie holds a signed id, nothing about the user.
      expect(decodeURIComponent(cookie.split(";")[0]!)).not.toMatch(/proxied|customer|admin/i);
    } finally {
      await proxied.close();
    }
  });

  it("give a guest no session at all, and a log-in a session id no one could have planted", async () => {
    const guest = new TestClient(server.baseUrl);
    for (const path of ["/", "/products", "/cart", "/login", "/signup"]) await guest.get(path);
    await guest.postForm("/login", { email: "admin@security.test", password: "wrong-password" });
    expect(guest.cookie(SESSION_COOKIE), "a guest was given a session").toBeUndefined();
    // An attacker's own (valid) session id, planted in the victim's browser before the victim logs in.
    const attacker = await signedIn("admin@security.test", "adminpass1");
    const planted = attacker.cookie(SESSION_COOKIE)!;
    const victim = new TestClient(server.baseUrl);
    await insertCheapUser(server, { name: "Victim Person", email: "victim@security.test", password: "victimpass1" });
    const login = await victim.postForm(
      "/login",
      { email: "victim@security.test", password: "victimpass1" },
      { cookie: `${SESSION_COOKIE}=${planted}` },
    );
    // Signed in already with the planted session: log-in is refused (sent home), never merged into it.
    expect(login.headers.get("location")).toBe("/");
    const fresh = new TestClient(server.baseUrl);
    expect((await fresh.postForm("/login", { email: "victim@security.test", password: "victimpass1" })).status).toBe(
      303,
    );
    expect(fresh.cookie(SESSION_COOKIE)).not.toBe(planted);
    expect(await (await attacker.get("/profile")).text()).not.toContain("Victim Person");
    // A forged cookie is ignored.
    const forged = await new TestClient(server.baseUrl).get("/profile", {
      cookie: `${SESSION_COOKIE}=s%3Aforged.c2lnbmF0dXJl`,
    });
    expect(forged.status).toBe(302);
  });

  it("never let a page accept a bearer token (the API's credential) as a sign-in", async () => {
    const id = (await server.database.db("users").where({ email: "admin@security.test" }).first()).id;
    const { token } = await server.services.accounts.issueToken(id);
    const response = await new TestClient(server.baseUrl).get("/admin", { authorization: `Bearer ${token}` });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fadmin");
  });
});
