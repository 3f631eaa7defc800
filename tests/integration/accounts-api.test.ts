import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let adminId: string;

async function register(name: string, email: string, password = "password123") {
  const response = await client.api("POST", "/auth/register", { body: { name, email, password } });
  expect(response.status).toBe(201);
  return response.body.data as { user: { _id: string; email: string }; token: string };
}

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  const [admin] = await server.database
    .db("users")
    .insert({
      name: "Admin One",
      email: "admin1@waqt.test",
      passwordHash: await hashPassword("adminpass1"),
      role: "admin",
    })
    .returning("id");
  adminId = admin.id;
  const login = await client.api("POST", "/auth/login", {
    body: { email: "admin1@waqt.test", password: "adminpass1" },
  });
  adminToken = login.body.data.token;
});
afterAll(async () => {
  await server?.close();
});

describe("POST /auth/register", () => {
  it("creates a customer and returns the user (never the hash) and a working token", async () => {
    const response = await client.api("POST", "/auth/register", {
      body: { name: "Sana Malik", email: "Sana@Example.com", password: "password123" },
    });
    expect(response.status).toBe(201);
    expect(response.body.success).toBe(true);
    const { user, token } = response.body.data;
    expect(user).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Sana Malik",
      email: "sana@example.com",
      phone: "",
      address: { street: "", city: "", state: "", zipCode: "", country: "Pakistan" },
      role: "customer",
      createdAt: expect.any(String),
      // The one field added since the first clients: no email change waits.
      pendingEmail: null,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/password|hash/i);
    const me = await client.api("GET", "/auth/me", { token });
    expect(me.body.data.user.email).toBe("sana@example.com");
  });

  it("refuses an email that is taken, whatever its letter case (409)", async () => {
    await register("First", "taken@example.com");
    const again = await client.api("POST", "/auth/register", {
      body: { name: "Second", email: "TAKEN@example.com", password: "password123" },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, message: "An account with this email already exists" });
  });

  it("explains every invalid field, and stores nothing", async () => {
    const response = await client.api("POST", "/auth/register", {
      body: { name: "", email: "nope", password: "short" },
    });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: "name", message: "Name is required" },
        { field: "email", message: "Please enter a valid email address" },
        { field: "password", message: "Password must be at least 8 characters long" },
      ]),
    );
    expect(response.body.message).toBe(response.body.errors[0].message);
    const [{ count }] = await server.database.db("users").where("email", "nope").count("* as count");
    expect(count).toBe(0);
  });

  it("refuses a password longer than bcrypt can read rather than cutting it", async () => {
    const response = await client.api("POST", "/auth/register", {
      body: { name: "Long", email: "long@example.com", password: "é".repeat(37) },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: "password", message: "Password must be at most 72 bytes long" }]);
  });

  it("refuses the demo store's published passwords (docs/decisions/2026-11-29-demo-passwords.md)", async () => {
    for (const password of ["admin12345", "customer12345"]) {
      const response = await client.api("POST", "/auth/register", {
        body: { name: "Copied", email: "copied@example.com", password },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        { field: "password", message: "This password is published with the demo store: choose another" },
      ]);
    }
  });
});

describe("POST /auth/login and /auth/logout", () => {
  it("signs in with the right pair and refuses a wrong one without saying which part was wrong", async () => {
    await register("Login Person", "login@example.com", "rightpassword");
    const ok = await client.api("POST", "/auth/login", {
      body: { email: "LOGIN@example.com", password: "rightpassword" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.email).toBe("login@example.com");
    expect(ok.body.data.token).toEqual(expect.any(String));

    const wrongPassword = await client.api("POST", "/auth/login", {
      body: { email: "login@example.com", password: "wrongpassword" },
    });
    const unknownEmail = await client.api("POST", "/auth/login", {
      body: { email: "ghost@example.com", password: "wrongpassword" },
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ success: false, message: "Incorrect email or password" });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it("requires both fields", async () => {
    const response = await client.api("POST", "/auth/login", { body: {} });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: "email", message: "Email is required" },
      { field: "password", message: "Password is required" },
    ]);
  });

  it("ends the token at logout, and only that token", async () => {
    const { token: first } = await register("Two Devices", "devices@example.com", "password123");
    const second = (
      await client.api("POST", "/auth/login", { body: { email: "devices@example.com", password: "password123" } })
    ).body.data.token;
    const logout = await client.api("POST", "/auth/logout", { token: first });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ success: true, message: "Logged out successfully", data: null });
    expect((await client.api("GET", "/auth/me", { token: first })).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: second })).status).toBe(200);
  });

  it("answers 401 for no token, a made-up token and an expired one", async () => {
    expect((await client.api("GET", "/auth/me")).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: "made-up" })).body).toEqual({
      success: false,
      message: "Not authorized, please log in",
    });
    const { token } = await register("Expired", "expired@example.com");
    await server.database.db("apiTokens").update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await client.api("GET", "/auth/me", { token })).status).toBe(401);
    // Restore the admin's token for the tests below.
    adminToken = (
      await client.api("POST", "/auth/login", { body: { email: "admin1@waqt.test", password: "adminpass1" } })
    ).body.data.token;
  });

  it("never reads the browser session cookie", async () => {
    const response = await client.api("GET", "/auth/me", { headers: { cookie: "waqt.sid=s%3Aanything" } });
    expect(response.status).toBe(401);
  });
});

describe("PUT /auth/update-profile", () => {
  it("saves name, phone and address, with Pakistan as the default country; a new email waits for its link", async () => {
    const { token } = await register("Profile Person", "profile@example.com");
    const response = await client.api("PUT", "/auth/update-profile", {
      token,
      body: {
        name: "Profile P.",
        email: "profile2@example.com",
        phone: "+92 300 0000000",
        address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "" },
        currentPassword: "password123",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.user).toMatchObject({
      name: "Profile P.",
      email: "profile@example.com",
      pendingEmail: "profile2@example.com",
      phone: "+92 300 0000000",
      address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
    });
  });

  it("refuses an email that belongs to someone else (409) and a missing name (400)", async () => {
    const { token } = await register("Clash", "clash@example.com");
    const taken = await client.api("PUT", "/auth/update-profile", {
      token,
      body: { name: "Clash", email: "admin1@waqt.test", currentPassword: "password123" },
    });
    expect(taken.status).toBe(409);
    const missing = await client.api("PUT", "/auth/update-profile", { token, body: { email: "clash@example.com" } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: "name", message: "Name is required" }]);
  });
});

describe("PUT /auth/change-password", () => {
  it("checks the current password (401 when wrong) and the new one's length", async () => {
    const { token } = await register("Changer", "changer@example.com", "oldpassword");
    const wrong = await client.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: "nope-nope", newPassword: "newpassword" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Current password is incorrect");
    const short = await client.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: "oldpassword", newPassword: "short" },
    });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([
      { field: "newPassword", message: "Password must be at least 8 characters long" },
    ]);
    const published = await client.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: "oldpassword", newPassword: "admin12345" },
    });
    expect(published.status).toBe(400);
    expect(published.body.errors).toEqual([
      { field: "newPassword", message: "This password is published with the demo store: choose another" },
    ]);
  });

  it("keeps the calling token, returns a fresh one, and ends every other token and session", async () => {
    const { user, token: calling } = await register("Rotator", "rotator@example.com", "oldpassword");
    const other = (
      await client.api("POST", "/auth/login", { body: { email: "rotator@example.com", password: "oldpassword" } })
    ).body.data.token;
    await server.database.db("sessions").insert({
      sid: "other-browser",
      sess: JSON.stringify({ cookie: {}, userId: user._id }),
      expire: new Date(Date.now() + 3600_000),
    });

    const response = await client.api("PUT", "/auth/change-password", {
      token: calling,
      body: { currentPassword: "oldpassword", newPassword: "newpassword" },
    });
    expect(response.status).toBe(200);
    const fresh = response.body.data.token;
    expect(fresh).toEqual(expect.any(String));
    expect((await client.api("GET", "/auth/me", { token: calling })).status).toBe(200);
    expect((await client.api("GET", "/auth/me", { token: fresh })).status).toBe(200);
    expect((await client.api("GET", "/auth/me", { token: other })).status).toBe(401);
    expect(await server.database.db("sessions").where("sid", "other-browser").first()).toBeUndefined();

    const oldLogin = await client.api("POST", "/auth/login", {
      body: { email: "rotator@example.com", password: "oldpassword" },
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await client.api("POST", "/auth/login", {
      body: { email: "rotator@example.com", password: "newpassword" },
    });
    expect(newLogin.status).toBe(200);
  });
});

describe("/users (admin)", () => {
  it("is refused to guests (401) and customers (403)", async () => {
    const { token } = await register("Curious", "curious@example.com");
    for (const [method, path, body] of [
      ["GET", "/users", undefined],
      ["POST", "/users/create-admin", { name: "Evil", email: "evil@example.com", password: "password123" }],
      ["PUT", `/users/${adminId}/role`, { role: "customer" }],
      ["DELETE", `/users/${adminId}`, undefined],
    ] as const) {
      const guest = await client.api(method, path, { body });
      expect(guest.status, `${method} ${path} as guest`).toBe(401);
      const customer = await client.api(method, path, { body, token });
      expect(customer.status, `${method} ${path} as customer`).toBe(403);
      expect(customer.body).toEqual({ success: false, message: "Not authorized as an admin" });
    }
    expect(await server.database.db("users").where("email", "evil@example.com").first()).toBeUndefined();
  });

  it("lists users newest first with search, role filter and pagination", async () => {
    await register("Zainab Searchable", "zainab@example.com");
    const all = await client.api("GET", "/users?page=1&limit=50&search=&role=", { token: adminToken });
    expect(all.status).toBe(200);
    expect(all.body.data.pagination).toEqual({ total: expect.any(Number), page: 1, pages: 1 });
    expect(all.body.data.users[0].email).toBe("zainab@example.com");

    const byName = await client.api("GET", "/users?search=zainab", { token: adminToken });
    expect(byName.body.data.users.map((user: { email: string }) => user.email)).toEqual(["zainab@example.com"]);
    const byEmail = await client.api("GET", "/users?search=ZAINAB@EXAMPLE", { token: adminToken });
    expect(byEmail.body.data.users).toHaveLength(1);
    const literalPercent = await client.api("GET", "/users?search=%25", { token: adminToken });
    expect(literalPercent.body.data.users).toHaveLength(0);

    const admins = await client.api("GET", "/users?role=admin", { token: adminToken });
    expect(admins.body.data.users.every((user: { role: string }) => user.role === "admin")).toBe(true);

    const paged = await client.api("GET", "/users?limit=2&page=2", { token: adminToken });
    expect(paged.body.data.users).toHaveLength(2);
    expect(paged.body.data.pagination.page).toBe(2);
    expect(paged.body.data.pagination.pages).toBe(Math.ceil(paged.body.data.pagination.total / 2));

    const bad = await client.api("GET", "/users?role=owner&page=0", { token: adminToken });
    expect(bad.status).toBe(400);
  });

  it("creates admins with the store's messages", async () => {
    const invalid = await client.api("POST", "/users/create-admin", {
      token: adminToken,
      body: { name: "A", email: "x", password: "1234567" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([
      { field: "name", message: "Name must be at least 2 characters" },
      { field: "email", message: "Valid email is required" },
      { field: "password", message: "Password must be at least 8 characters" },
    ]);
    const created = await client.api("POST", "/users/create-admin", {
      token: adminToken,
      body: { name: "Admin Two", email: "admin2@waqt.test", password: "adminpass2" },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Admin user created successfully!");
    expect(created.body.data.user.role).toBe("admin");
    const duplicate = await client.api("POST", "/users/create-admin", {
      token: adminToken,
      body: { name: "Admin Two", email: "ADMIN2@waqt.test", password: "adminpass2" },
    });
    expect(duplicate.status).toBe(409);
  });

  it("changes roles, but not one's own, and the change applies to the next request", async () => {
    const { user, token } = await register("Promoted", "promoted@example.com");
    expect((await client.api("GET", "/users", { token })).status).toBe(403);
    const promoted = await client.api("PUT", `/users/${user._id}/role`, { token: adminToken, body: { role: "admin" } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.message).toBe("User role updated successfully!");
    expect(promoted.body.data.user.role).toBe("admin");
    expect((await client.api("GET", "/users", { token })).status).toBe(200);

    const own = await client.api("PUT", `/users/${adminId}/role`, { token: adminToken, body: { role: "customer" } });
    expect(own.status).toBe(400);
    expect(own.body.message).toBe("You cannot change your own role");
    const badRole = await client.api("PUT", `/users/${user._id}/role`, { token: adminToken, body: { role: "owner" } });
    expect(badRole.status).toBe(400);
    expect(
      (await client.api("PUT", `/users/not-a-uuid/role`, { token: adminToken, body: { role: "admin" } })).body,
    ).toEqual({
      success: false,
      message: "User not found",
    });
  });

  it("never leaves the store without an admin, even when two admins demote each other at once", async () => {
    // Exactly two admins: the first admin and a helper.
    const others = await server.database.db("users").where("role", "admin").whereNot("id", adminId).select("id");
    for (const { id } of others) {
      expect(
        (await client.api("PUT", `/users/${id}/role`, { token: adminToken, body: { role: "customer" } })).status,
      ).toBe(200);
    }
    const { user: helper } = await register("Helper", "helper@example.com");
    await client.api("PUT", `/users/${helper._id}/role`, { token: adminToken, body: { role: "admin" } });
    const helperToken = (
      await client.api("POST", "/auth/login", { body: { email: "helper@example.com", password: "password123" } })
    ).body.data.token;

    const [first, second] = await Promise.all([
      client.api("PUT", `/users/${helper._id}/role`, { token: adminToken, body: { role: "customer" } }),
      client.api("PUT", `/users/${adminId}/role`, { token: helperToken, body: { role: "customer" } }),
    ]);
    const statuses = [first.status, second.status].sort();
    // One demotion wins; the other is refused (the last admin) or comes from a caller who is no
    // longer an admin (403). Either way one admin remains.
    expect(statuses[0]).toBe(200);
    expect([400, 403]).toContain(statuses[1]);
    const loser = first.status === 200 ? second : first;
    if (loser.status === 400) expect(loser.body.message).toBe("The last admin cannot be demoted");
    const [{ count }] = await server.database.db("users").where("role", "admin").count("* as count");
    expect(count).toBe(1);

    // Put the first admin back in charge for the remaining tests.
    const remaining = await server.database.db("users").where("role", "admin").first("id");
    if (remaining.id !== adminId) {
      expect(
        (await client.api("PUT", `/users/${adminId}/role`, { token: helperToken, body: { role: "admin" } })).status,
      ).toBe(200);
    }
  });

  it("deletes a user: their tokens and sessions end and their orders stay", async () => {
    const { user, token } = await register("Leaving", "leaving@example.com");
    const [order] = await server.database
      .db("orders")
      .insert({
        userId: user._id,
        customerName: "Leaving",
        customerEmail: "leaving@example.com",
        street: "1 Road",
        city: "Lahore",
        state: "Punjab",
        zipCode: "54000",
        country: "Pakistan",
        totalPrice: "12500.00",
      })
      .returning("id");
    const deleted = await client.api("DELETE", `/users/${user._id}`, { token: adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "User deleted successfully!", data: null });
    expect((await client.api("GET", "/auth/me", { token })).status).toBe(401);
    const kept = await server.database.db("orders").where("id", order.id).first();
    expect(kept).toMatchObject({ userId: null, customerName: "Leaving", customerEmail: "leaving@example.com" });
    expect((await client.api("DELETE", `/users/${user._id}`, { token: adminToken })).status).toBe(404);
    const self = await client.api("DELETE", `/users/${adminId}`, { token: adminToken });
    expect(self.status).toBe(400);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After after too many log-in attempts for one email", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" });
    try {
      const limitedClient = new TestClient(limited.baseUrl);
      let last;
      for (let attempt = 0; attempt < 11; attempt += 1) {
        last = await limitedClient.api("POST", "/auth/login", {
          body: { email: "target@example.com", password: "guess-guess" },
        });
        if (attempt < 10) expect(last.status).toBe(401);
      }
      expect(last!.status).toBe(429);
      expect(last!.body.message).toBe("Too many log-in attempts. Please wait a few minutes and try again.");
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
