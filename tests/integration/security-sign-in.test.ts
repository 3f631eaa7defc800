/**
 * Log-in and sign-up reveal no more than the store's messages and are rate limited.
 * (Session regeneration at log-in and the basic cookie flags are in accounts-pages.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { TestClient } from "../support/http-client";
import { insertUser } from "../support/fixtures";
import { insertCheapUser, server, withSecurityStore } from "../support/security-store";
import { startTestServer } from "../support/test-server";

withSecurityStore();

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
