/**
 * Requests that come from other sites: no redirect leaves the store, and cross-site form posts are
 * refused on every action.
 */
import { describe, expect, it } from "vitest";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { insertCheapUser, server, signedIn, withSecurityStore } from "../support/security-store";
import { pageRoutes } from "../support/page-routes";

withSecurityStore();

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

describe("cross-site form posts", () => {
  it("are refused with 403 on every page with a form action, changing nothing, signed in or not", async () => {
    const actions = (await pageRoutes()).filter((page) => page.hasAction);
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
