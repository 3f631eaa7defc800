/**
 * Log-in lockouts (docs/decisions/2026-11-25-login-lockout.md): a stranger's wrong guesses lock
 * the account only for the stranger's own address, so the owner still signs in from elsewhere;
 * guesses spread over many addresses are stopped by a slower limit on the account itself. The
 * store sits behind a proxy on this machine (TRUST_PROXY=loopback), so each request says its
 * client's address in X-Forwarded-For, as nginx would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

const TOO_MANY = "Too many log-in attempts. Please wait a few minutes and try again.";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMITS: "on", TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await server?.close();
});

/** An account with a cheap bcrypt cost, for the many attempts below (log-in accepts any cost). */
async function customer(email: string, password: string) {
  await server.database
    .db("users")
    .insert({ name: "Locked Out", email, passwordHash: await hashPassword(password, 4) });
}

/** A log-in through the API from a client at `address`. */
async function apiLogIn(address: string, email: string, password: string) {
  return new TestClient(server.baseUrl).api("POST", "/auth/login", {
    body: { email, password },
    headers: { "x-forwarded-for": address },
  });
}

/** A log-in through the page from a client at `address`. */
async function pageLogIn(address: string, email: string, password: string) {
  return new TestClient(server.baseUrl).postForm("/login", { email, password }, { "x-forwarded-for": address });
}

describe("log-in lockouts", () => {
  it("lock a stranger's address out of an account, never its owner at another address", async () => {
    await customer("owner@lockout.test", "ownerpass1");
    const stranger = "198.51.100.7";
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await apiLogIn(stranger, "owner@lockout.test", `guess-${attempt}`)).status).toBe(401);
    }
    // The stranger is stopped, even with the right password, on the API and the page alike.
    const refused = await apiLogIn(stranger, "OWNER@lockout.test", "ownerpass1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body).toEqual({ success: false, message: TOO_MANY });
    const refusedPage = await pageLogIn(stranger, "owner@lockout.test", "ownerpass1");
    expect(refusedPage.status).toBe(429);
    expect(await refusedPage.text()).toContain(TOO_MANY);

    // The owner, at home and on the phone, signs in as usual.
    const atHome = await pageLogIn("203.0.113.20", "owner@lockout.test", "ownerpass1");
    expect(atHome.status).toBe(303);
    expect(atHome.headers.get("set-cookie") ?? "").toContain(SESSION_COOKIE);
    const onThePhone = await apiLogIn("2001:db8:77::5", "owner@lockout.test", "ownerpass1");
    expect(onThePhone.status).toBe(200);
    expect(onThePhone.body.data.user.email).toBe("owner@lockout.test");
  });

  it("stop a guesser spread over many addresses after 100 attempts at one account in an hour", async () => {
    await customer("target@lockout.test", "targetpass1");
    // Ten addresses, ten wrong guesses each: each address stays within its own limit.
    for (let address = 1; address <= 10; address += 1) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const answer = await apiLogIn(`192.0.2.${address}`, "target@lockout.test", `spread-${address}-${attempt}`);
        expect(answer.status, `address ${address}, attempt ${attempt}`).toBe(401);
      }
    }
    // The account now refuses everyone for a while, the right password from a new address too.
    const refused = await apiLogIn("192.0.2.200", "target@lockout.test", "targetpass1");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY);
    expect((await pageLogIn("203.0.113.99", "target@lockout.test", "targetpass1")).status).toBe(429);
    // Another account is not affected.
    await customer("bystander@lockout.test", "bystanderpass1");
    expect((await apiLogIn("192.0.2.200", "bystander@lockout.test", "bystanderpass1")).status).toBe(200);
  });
});
