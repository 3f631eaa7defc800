import { afterAll, beforeAll, expect } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { TestClient } from "./http-client";
import { startTestServer, type TestServer } from "./test-server";

/**
 * The store the security tests run on (tests/integration/security-*.test.ts), with its admin, and
 * the helpers they share. `withSecurityStore()` registers the hooks that set `server`.
 */
export let server: TestServer;

/** A user with a cheap bcrypt cost, for the many log-ins of these tests (log-in accepts any cost). */
export async function insertCheapUser(
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

export function withSecurityStore() {
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
}

export async function signedIn(email: string, password: string, target = server) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}
