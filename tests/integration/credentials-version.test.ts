/**
 * A password change ends every other sign-in for good (the credentials version,
 * docs/decisions/2026-11-23-credentials-version.md), even one with a request in flight across
 * the change, a session row written back after it, or a token from a log-in that checked the old
 * password; a role change and a deletion apply to the next request the same way.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../server/http/page-session";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let productId: string;

beforeAll(async () => {
  server = await startTestServer();
  await insertUser(server, { name: "Trust Admin", email: "admin@trust.test", password: "adminpass1", role: "admin" });
  [productId] = (await insertProducts(server, [{ name: "Trusted Automatic", stock: 50 }])) as [string];
});
afterAll(async () => {
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signedIn(email: string, password: string, target = server) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

describe("a password change ends every other sign-in", () => {
  it("signs out a session whose form post was in flight across the change, and keeps the one that changed it", async () => {
    await insertUser(server, { name: "Victim Shopper", email: "victim@trust.test", password: "victimpass1" });
    const thief = await signedIn("victim@trust.test", "victimpass1");
    const owner = await signedIn("victim@trust.test", "victimpass1");
    expect((await thief.get("/profile")).status).toBe(200);

    // The stolen session starts a slow Add to Cart (whose answer carries a message to the next
    // page), and is still sending it when the owner changes the password.
    const body = new URLSearchParams({ intent: "add", productId, quantity: "1", returnTo: "/products" }).toString();
    const { hostname, port, host } = new URL(server.baseUrl);
    const socket = net.connect(Number(port), hostname);
    const answer = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      [
        "POST /cart HTTP/1.1",
        `Host: ${host}`,
        `Origin: ${server.baseUrl}`,
        "Connection: close",
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${body.length}`,
        `Cookie: ${thief.cookieHeader()}`,
        "",
        body.slice(0, 10),
      ].join("\r\n"),
    );
    await sleep(300);
    const change = await owner.postForm("/profile/password", {
      currentPassword: "victimpass1",
      newPassword: "victimpass2",
      confirmPassword: "victimpass2",
    });
    expect(change.status).toBe(303);
    socket.write(body.slice(10));
    expect(await answer).toMatch(/^HTTP\/1\.1 303/);

    const afterwards = await thief.get("/profile");
    expect(afterwards.status).toBe(302);
    expect(afterwards.headers.get("location")).toBe("/login?redirectTo=%2Fprofile");
    expect((await owner.get("/profile")).status).toBe(200);
  });

  it("signs out a session whose row was written back after the change, whatever wrote it", async () => {
    await insertUser(server, { name: "Row Victim", email: "row@trust.test", password: "rowpass11" });
    const thief = await signedIn("row@trust.test", "rowpass11");
    const owner = await signedIn("row@trust.test", "rowpass11");
    const thiefSid = decodeURIComponent(thief.cookie(SESSION_COOKIE)!).slice(2).split(".")[0]!;
    const row = await server.database.db("sessions").where("sid", thiefSid).first();
    expect(row).toBeDefined();
    await owner.postForm("/profile/password", {
      currentPassword: "rowpass11",
      newPassword: "rowpass22",
      confirmPassword: "rowpass22",
    });
    expect(await server.database.db("sessions").where("sid", thiefSid).first()).toBeUndefined();
    // The session store saves with an upsert: a late save puts the old row back as it was.
    await server.database.db("sessions").insert({ sid: row.sid, sess: row.sess, expire: row.expire });
    const afterwards = await thief.get("/profile");
    expect(afterwards.status).toBe(302);
    expect((await owner.get("/profile")).status).toBe(200);
  });

  it("refuses an API token issued by a log-in that checked the old password, and keeps the one that changed it", async () => {
    const userId = await insertUser(server, {
      name: "Token Victim",
      email: "tokens@trust.test",
      password: "tokenpass1",
    });
    const client = new TestClient(server.baseUrl);
    const stolen = await apiToken(client, "tokens@trust.test", "tokenpass1");
    const mine = await apiToken(client, "tokens@trust.test", "tokenpass1");
    // A log-in that checked the old password, whose token is written after the change.
    const lateLogIn = await server.services.accounts.logIn(
      { email: "tokens@trust.test", password: "tokenpass1" },
      { ip: "127.0.0.9" },
    );
    const changed = await client.api("PUT", "/auth/change-password", {
      token: mine,
      body: { currentPassword: "tokenpass1", newPassword: "tokenpass2" },
    });
    expect(changed.status).toBe(200);
    const late = await server.services.accounts.issueToken(userId, lateLogIn.credentialsVersion);
    expect((await client.api("GET", "/auth/me", { token: stolen })).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: late.token })).status).toBe(401);
    expect((await client.api("GET", "/auth/me", { token: mine })).status).toBe(200);
    expect((await client.api("GET", "/auth/me", { token: changed.body.data.token })).status).toBe(200);
  });

  it("applies a role change and a deletion to the next request, even to a session written back after them", async () => {
    const adminId = await insertUser(server, {
      name: "Demoted Admin",
      email: "demoted@trust.test",
      password: "demotedpass1",
      role: "admin",
    });
    const demoted = await signedIn("demoted@trust.test", "demotedpass1");
    expect((await demoted.get("/admin")).status).toBe(200);
    const boss = await signedIn("admin@trust.test", "adminpass1");
    const sid = decodeURIComponent(demoted.cookie(SESSION_COOKIE)!).slice(2).split(".")[0]!;
    const row = await server.database.db("sessions").where("sid", sid).first();

    const demote = await boss.postForm(`/admin/users/${adminId}/role`, { role: "customer" });
    expect(demote.status).toBe(303);
    const refused = await demoted.get("/admin");
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/");

    const removal = await boss.postForm(`/admin/users/${adminId}/delete`, {});
    expect(removal.status).toBe(303);
    await server.database
      .db("sessions")
      .insert({ sid: row.sid, sess: row.sess, expire: row.expire })
      .onConflict("sid")
      .ignore();
    const gone = await demoted.get("/profile");
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/login?redirectTo=%2Fprofile");
  });
});
