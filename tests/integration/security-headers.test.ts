/**
 * Security headers and cookie flags on every kind of answer; pages for a signed-in user are never
 * stored by caches.
 */
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { TestClient } from "../support/http-client";
import { insertCheapUser, server, signedIn, withSecurityStore } from "../support/security-store";
import { startTestServer } from "../support/test-server";

withSecurityStore();

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
