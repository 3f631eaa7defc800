/**
 * Per-address rate limits count a client's network, not its one address
 * (docs/decisions/2026-11-29-rate-limit-addresses.md): an IPv6 client gets a /64 from its
 * provider and may take any address in it, so every address of one /64 counts as one; an
 * IPv4-mapped address (`::ffff:a.b.c.d`, in either spelling) counts as its IPv4 address. The store
 * sits behind a proxy on this machine (TRUST_PROXY=loopback): each request says its client's
 * address in X-Forwarded-For, as nginx would, spelled as a client may spell it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_PER_IP } from "../../server/modules/contact/contact.service";
import { SIGNUP_PER_IP } from "../../server/modules/accounts/accounts.service";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMITS: "on", TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await server?.close();
});

const from = (address: string) => ({ "x-forwarded-for": address });

describe("per-address limits", () => {
  it("count every address of one IPv6 /64 as one client, however it is spelled", async () => {
    const client = new TestClient(server.baseUrl);
    const signUp = (address: string, n: number) =>
      client.api("POST", "/auth/register", {
        body: { name: "Same Network", email: `net${n}@addresses.test`, password: "networkpass1" },
        headers: from(address),
      });
    // Ten sign-ups, each from another address of 2001:db8:5:6::/64.
    for (let n = 1; n <= SIGNUP_PER_IP.limit; n += 1) {
      expect((await signUp(`2001:db8:5:6::${n.toString(16)}`, n)).status, `address ${n}`).toBe(201);
    }
    // Another address of the same /64, uncompressed, in capitals and with a zone: refused.
    const refused = await signUp("2001:0DB8:0005:0006:FFFF:0:0:1%eth0", 11);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The next /64 is another client.
    expect((await signUp("2001:db8:5:7::1", 12)).status).toBe(201);
  });

  it("count an IPv4-mapped address as its IPv4 address, dotted or in hex", async () => {
    const client = new TestClient(server.baseUrl);
    const message = { name: "Mapped", email: "mapped@addresses.test", subject: "Hello", message: "Is it in stock?" };
    const spellings = ["203.0.113.50", "::ffff:203.0.113.50", "::FFFF:cb00:7132", "0:0:0:0:0:ffff:203.0.113.50"];
    for (let sent = 0; sent < CONTACT_PER_IP.limit; sent += 1) {
      const address = spellings[sent % spellings.length]!;
      expect((await client.postForm("/contact", message, from(address))).status, address).toBe(303);
    }
    expect((await client.postForm("/contact", message, from("::ffff:cb00:7132"))).status).toBe(429);
    expect((await client.postForm("/contact", message, from("203.0.113.50"))).status).toBe(429);
    // Its neighbour is not.
    expect((await client.postForm("/contact", message, from("203.0.113.51"))).status).toBe(303);
  });

  it("lock a guesser's /64 out of an account, not one address of it", async () => {
    await server.database
      .db("users")
      .insert({ name: "Guessed", email: "guessed@addresses.test", passwordHash: await hashPassword("ownerpass1", 4) });
    const logIn = (address: string, password: string) =>
      new TestClient(server.baseUrl).api("POST", "/auth/login", {
        body: { email: "guessed@addresses.test", password },
        headers: from(address),
      });
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await logIn(`2001:db8:99:1:${attempt}::1`, `guess-${attempt}`)).status).toBe(401);
    }
    expect((await logIn("2001:db8:99:1:abcd::77", "ownerpass1")).status).toBe(429);
    // The owner, on another network, signs in.
    expect((await logIn("2001:db8:99:2::1", "ownerpass1")).status).toBe(200);
  });
});
