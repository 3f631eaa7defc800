/**
 * Password changes are rate limited before bcrypt runs: 10 attempts per user and 30 per client
 * address a quarter hour, on the page and the API alike, then 429 with Retry-After even for the
 * right password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

async function signedIn(email: string, password: string, target: TestServer) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

describe("password changes are rate limited before the hash is checked", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMITS: "on" });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers 429 with Retry-After after 10 attempts for one user, on the page and the API, even with the right password", async () => {
    await insertUser(limited, { name: "Guessed User", email: "guessed@trust.test", password: "rightpass1" });
    const page = await signedIn("guessed@trust.test", "rightpass1", limited);
    const token = await apiToken(page, "guessed@trust.test", "rightpass1");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        (
          await page.postForm("/profile/password", {
            currentPassword: "wrongpass1",
            newPassword: "newpass123",
            confirmPassword: "newpass123",
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await page.api("PUT", "/auth/change-password", {
            token,
            body: { currentPassword: "wrongpass1", newPassword: "newpass123" },
          })
        ).status,
      ).toBe(401);
    }
    const pageRefusal = await page.postForm("/profile/password", {
      currentPassword: "rightpass1",
      newPassword: "newpass123",
      confirmPassword: "newpass123",
    });
    expect(pageRefusal.status).toBe(429);
    expect(Number(pageRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await pageRefusal.text()).toContain("Too many password attempts");
    const apiRefusal = await page.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: "rightpass1", newPassword: "newpass123" },
    });
    expect(apiRefusal.status).toBe(429);
    expect(apiRefusal.body).toMatchObject({
      success: false,
      message: expect.stringContaining("Too many password attempts"),
    });
    expect(Number(apiRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
    // The password did not change.
    await signedIn("guessed@trust.test", "rightpass1", limited);
  });

  it("answers 429 after 30 attempts from one address, across users", async () => {
    // The attempts above came from this address too.
    await limited.database.db("rateLimits").delete();
    const clients: TestClient[] = [];
    for (let index = 0; index < 4; index++) {
      await insertUser(limited, {
        name: `Address User ${index}`,
        email: `address${index}@trust.test`,
        password: "rightpass1",
      });
      clients.push(await signedIn(`address${index}@trust.test`, "rightpass1", limited));
    }
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const client = clients[Math.floor(attempt / 8)]!;
      statuses.push(
        (
          await client.postForm("/profile/password", {
            currentPassword: "wrongpass1",
            newPassword: "newpass123",
            confirmPassword: "newpass123",
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Thirty-eight bcrypt hashes at the store's cost, one after another: on a busy machine that is
    // more than the default half minute.
  }, 120_000);
});
