import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";
import { signedInClient } from "../support/page-clients";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.database.db("users").insert([
    { name: "Admin Page", email: "admin@pages.test", passwordHash: await hashPassword("adminpass1"), role: "admin" },
    {
      name: "Customer Page",
      email: "customer@pages.test",
      passwordHash: await hashPassword("custpass1"),
      role: "customer",
    },
  ]);
});
afterAll(async () => {
  await server?.close();
});

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

describe("sign-up page", () => {
  it("shows each problem beside its field and keeps what was typed (never the password)", async () => {
    const client = new TestClient(server.baseUrl);
    const response = await client.postForm("/signup", {
      name: "Hina",
      email: "hina@example.com",
      password: "short",
      confirmPassword: "different",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Password must be at least 8 characters long");
    expect(html).toContain("Passwords do not match");
    expect(html).toContain('value="hina@example.com"');
    expect(html).not.toContain('value="short"');
    expect(await server.database.db("users").where("email", "hina@example.com").first()).toBeUndefined();
  });

  it("creates the account, signs in, and goes where the shopper came from", async () => {
    const client = new TestClient(server.baseUrl);
    const response = await client.postForm("/signup", {
      name: "Hina Rauf",
      email: "hina@example.com",
      password: "password123",
      confirmPassword: "password123",
      redirectTo: "/profile",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/profile");
    const profile = await client.get("/profile");
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain("Hina Rauf");
    expect(html).toContain("Customer");
    // A signed-in user does not see sign-up or log-in again.
    expect((await client.get("/signup")).headers.get("location")).toBe("/");
    expect((await client.get("/login")).headers.get("location")).toBe("/");
  });

  it("says so when the email is taken, beside the email field", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/signup", {
      name: "Again",
      email: "CUSTOMER@pages.test",
      password: "password123",
      confirmPassword: "password123",
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("An account with this email already exists");
  });

  it("refuses a form whose honeypot was filled", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/signup", {
      name: "Bot",
      email: "bot@example.com",
      password: "password123",
      confirmPassword: "password123",
      website: "http://spam.example",
    });
    expect(response.status).toBe(403);
    expect(await server.database.db("users").where("email", "bot@example.com").first()).toBeUndefined();
  });
});

describe("log-in page and sessions", () => {
  it("refuses a wrong pair with one message and keeps the email", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/login", {
      email: "customer@pages.test",
      password: "wrong-one",
    });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain("Incorrect email or password");
    expect(html).toContain('value="customer@pages.test"');
  });

  it("gives a new session id at log-in and a cookie with the right flags", async () => {
    const client = new TestClient(server.baseUrl);
    // A guest session planted before log-in (e.g. by an attacker) must not become the signed-in one.
    const planted = await client.postForm("/login", { email: "customer@pages.test", password: "wrong-one" });
    const before = client.cookie(SESSION_COOKIE);
    expect(planted.status).toBe(401);
    const response = await client.postForm("/login", { email: "customer@pages.test", password: "custpass1" });
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(client.cookie(SESSION_COOKIE)).toBeTruthy();
    expect(client.cookie(SESSION_COOKIE)).not.toBe(before);
  });

  it("goes back to a same-site path after log-in, never to another site", async () => {
    for (const [redirectTo, expected] of [
      ["/profile?tab=1", "/profile?tab=1"],
      ["https://evil.example/", "/"],
      ["//evil.example/", "/"],
      ["/\\evil.example", "/"],
      ["javascript:alert(1)", "/"],
    ]) {
      const response = await new TestClient(server.baseUrl).postForm("/login", {
        email: "customer@pages.test",
        password: "custpass1",
        redirectTo: redirectTo!,
      });
      expect(response.headers.get("location"), redirectTo).toBe(expected);
    }
  });

  it("logs out with a POST that ends the session", async () => {
    const client = await signedIn("customer@pages.test", "custpass1");
    expect((await client.get("/profile")).status).toBe(200);
    const logout = await client.postForm("/logout", {});
    expect(logout.status).toBe(303);
    expect(logout.headers.get("location")).toBe("/");
    expect((await client.get("/profile")).status).toBe(302);
  });
});

describe("guards", () => {
  it("sends a guest to log in and back, and a customer away from admin pages", async () => {
    const guest = new TestClient(server.baseUrl);
    for (const path of [
      "/profile",
      "/profile/edit",
      "/profile/password",
      "/admin",
      "/admin/users",
      "/admin/users/new",
    ]) {
      const response = await guest.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const customer = await signedIn("customer@pages.test", "custpass1");
    for (const path of ["/admin", "/admin/users", "/admin/users/new"]) {
      const response = await customer.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("/");
    }
    const post = await customer.postForm("/admin/users/new", {
      name: "Sneaky",
      email: "sneaky@example.com",
      password: "password123",
    });
    expect(post.headers.get("location")).toBe("/");
    expect(await server.database.db("users").where("email", "sneaky@example.com").first()).toBeUndefined();
  });
});

describe("profile pages", () => {
  it("saves the profile and says so; a bad email is shown beside the field with the input kept", async () => {
    const client = await signedIn("customer@pages.test", "custpass1");
    const bad = await client.postForm("/profile/edit", {
      name: "Customer Page",
      email: "not-an-email",
      phone: "",
      street: "5 Canal Road",
      city: "",
      state: "",
      zipCode: "",
      country: "",
    });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Please enter a valid email address");
    expect(badHtml).toContain('value="5 Canal Road"');

    const saved = await client.postForm("/profile/edit", {
      name: "Customer Renamed",
      email: "customer@pages.test",
      phone: "+92 321 0000000",
      street: "5 Canal Road",
      city: "Faisalabad",
      state: "Punjab",
      zipCode: "38000",
      country: "",
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/profile");
    const html = await (await client.get("/profile")).text();
    expect(html).toContain("Profile updated successfully!");
    // Shown once: the message went with that page.
    expect(await (await client.get("/profile")).text()).not.toContain("Profile updated successfully!");
    expect(html).toContain("Customer Renamed");
    expect(html).toContain("5 Canal Road, Faisalabad, Punjab, 38000, Pakistan");
  });

  it("changes the password, keeps this browser signed in and ends the others", async () => {
    const [thisBrowser, otherBrowser] = [
      await signedIn("customer@pages.test", "custpass1"),
      await signedIn("customer@pages.test", "custpass1"),
    ];
    const mismatch = await thisBrowser.postForm("/profile/password", {
      currentPassword: "custpass1",
      newPassword: "newpass123",
      confirmPassword: "other123",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("New passwords do not match");
    const wrong = await thisBrowser.postForm("/profile/password", {
      currentPassword: "nope-nope",
      newPassword: "newpass123",
      confirmPassword: "newpass123",
    });
    expect(await wrong.text()).toContain("Current password is incorrect");

    const changed = await thisBrowser.postForm("/profile/password", {
      currentPassword: "custpass1",
      newPassword: "newpass123",
      confirmPassword: "newpass123",
    });
    expect(changed.status).toBe(303);
    expect((await thisBrowser.get("/profile")).status).toBe(200);
    expect((await otherBrowser.get("/profile")).status).toBe(302);
    await signedIn("customer@pages.test", "newpass123");
  });
});

describe("admin users pages", () => {
  it("creates an admin, changes a role after confirming, and deletes after confirming", async () => {
    const admin = await signedIn("admin@pages.test", "adminpass1");
    const invalid = await admin.postForm("/admin/users/new", { name: "X", email: "bad", password: "1234" });
    expect(invalid.status).toBe(400);
    const invalidHtml = await invalid.text();
    expect(invalidHtml).toContain("Name must be at least 2 characters");
    expect(invalidHtml).toContain("Valid email is required");
    expect(invalidHtml).toContain("Password must be at least 8 characters");

    const created = await admin.postForm("/admin/users/new", {
      name: "New Admin",
      email: "newadmin@pages.test",
      password: "adminpass2",
    });
    expect(created.headers.get("location")).toBe("/admin/users");
    const list = await (await admin.get("/admin/users")).text();
    expect(list).toContain("Admin user created successfully!");
    expect(list).toContain("newadmin@pages.test");

    const target = await server.database.db("users").where("email", "hina@example.com").first();
    const confirm = await admin.get(`/admin/users/${target.id}/role?role=admin`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Are you sure you want to change this user&#x27;s role to admin?");
    // Only the confirmation's POST changes anything.
    expect((await server.database.db("users").where("id", target.id).first()).role).toBe("customer");
    const roleChanged = await admin.postForm(`/admin/users/${target.id}/role`, { role: "admin" });
    expect(roleChanged.headers.get("location")).toBe("/admin/users");
    expect(await (await admin.get("/admin/users")).text()).toContain("User role updated successfully!");
    expect((await server.database.db("users").where("id", target.id).first()).role).toBe("admin");

    const searched = await (await admin.get("/admin/users?search=hina&role=admin")).text();
    expect(searched).toContain("hina@example.com");
    expect(searched).not.toContain("customer@pages.test");

    const deleteConfirm = await (await admin.get(`/admin/users/${target.id}/delete`)).text();
    expect(deleteConfirm).toContain("This action cannot be undone");
    const deleted = await admin.postForm(`/admin/users/${target.id}/delete`, {});
    expect(deleted.headers.get("location")).toBe("/admin/users");
    expect(await (await admin.get("/admin/users")).text()).toContain("User deleted successfully!");
    expect(await server.database.db("users").where("id", target.id).first()).toBeUndefined();
  });

  it("shows why an admin action was refused", async () => {
    const admin = await signedIn("admin@pages.test", "adminpass1");
    const self = await server.database.db("users").where("email", "admin@pages.test").first();
    const refused = await admin.postForm(`/admin/users/${self.id}/delete`, {});
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("You cannot delete your own account");
    expect((await admin.get("/admin/users/not-a-uuid/delete")).status).toBe(404);
  });
});
