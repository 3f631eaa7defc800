/**
 * Forgotten passwords (docs/product.md, "Accounts"): the same answer whether or not an account
 * exists, in the same time; a link by mail (through a real SMTP server) that works once, within
 * the hour, and only for the current password; a reset ends every session and token and signs
 * this browser in; a "password changed" mail after a change or a reset; links sent by an admin;
 * the reset mail's body purged once sent; rate limits per client address and per email.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { TestSmtpServer, linkIn, type ReceivedMail } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";
const ANSWER = "If an account exists for that email, we have sent a link.";
const INVALID = "This reset link is invalid or has expired";

let server: TestServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL }, { mail: { pollMs: 50 } });
  await insertUser(server, { name: "Reset Admin", email: "admin@reset.test", password: "adminpass1", role: "admin" });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

let people = 0;
async function newCustomer(password = "oldpassword1") {
  people += 1;
  const email = `person${people}@reset.test`;
  const id = await insertUser(server, { name: `Person ${people}`, email, password });
  return { id, email, password };
}

async function signedIn(email: string, password: string) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

async function resetMailFor(email: string, count = 1): Promise<ReceivedMail> {
  await smtp.waitFor(() => smtp.to(email).filter((mail) => mail.subject.startsWith("Reset your")).length >= count);
  return smtp.to(email).filter((mail) => mail.subject.startsWith("Reset your"))[count - 1]!;
}

const tokenOf = (mail: ReceivedMail) =>
  new URL(linkIn(mail.text, `${PUBLIC_URL}/reset-password?token=`)).searchParams.get("token")!;

describe("Forgot your password?", () => {
  it("is linked from the log-in page and answers the same, in the same time, whether or not the account exists", async () => {
    const login = await (await new TestClient(server.baseUrl).get("/login")).text();
    expect(login).toContain('href="/forgot-password"');
    expect(login).toContain("Forgot your password?");

    const person = await newCustomer();
    const guest = new TestClient(server.baseUrl);
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await guest.postForm("/forgot-password", { email });
      return { response, ms: performance.now() - started };
    };
    const known = await timed(person.email);
    const unknown = await timed("nobody@reset.test");
    for (const { response } of [known, unknown]) {
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/forgot-password");
    }
    // Both take at least the floor the service waits for, and about as long.
    expect(known.ms).toBeGreaterThanOrEqual(240);
    expect(unknown.ms).toBeGreaterThanOrEqual(240);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(200);
    const page = await (await guest.get("/forgot-password")).text();
    expect(page).toContain(ANSWER);

    const api = new TestClient(server.baseUrl);
    for (const email of [person.email, "nobody@reset.test"]) {
      const response = await api.api("POST", "/auth/forgot-password", { body: { email } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: ANSWER, data: null });
    }
    const invalid = await api.api("POST", "/auth/forgot-password", { body: { email: "not an email" } });
    expect(invalid.status).toBe(400);

    await resetMailFor(person.email, 2);
    await server.jobs!.runDueJobs();
    expect(smtp.to("nobody@reset.test")).toEqual([]);
  });

  it("mails an absolute link that resets the password once, ends every session and token, and signs this browser in", async () => {
    const person = await newCustomer();
    const elsewhere = await signedIn(person.email, person.password);
    const token = await apiToken(new TestClient(server.baseUrl), person.email, person.password);

    await new TestClient(server.baseUrl).postForm("/forgot-password", { email: person.email.toUpperCase() });
    const mail = await resetMailFor(person.email);
    expect(mail.subject).toBe("Reset your Waqt password");
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reset-password?token=`);
    expect(mail.text).toContain("within 60 minutes");
    const link = linkIn(mail.text, `${PUBLIC_URL}/reset-password?token=`);
    const path = link.slice(PUBLIC_URL.length);

    const browser = new TestClient(server.baseUrl);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect(form.headers.get("cache-control")).toBe("no-store");
    // Other sites never see the address (with its token) in a Referer.
    expect(form.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const formText = await form.text();
    expect(formText).toContain("Choose a new password");
    expect(formText).toContain('name="confirmPassword"');

    // The sign-up's messages, with nothing changed.
    const mismatch = await browser.postForm(path, {
      token: tokenOf(mail),
      password: "newpassword1",
      confirmPassword: "newpassword2",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match");
    const short = await browser.postForm(path, { token: tokenOf(mail), password: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Password must be at least 8 characters long");

    const reset = await browser.postForm(path, {
      token: tokenOf(mail),
      password: "newpassword1",
      confirmPassword: "newpassword1",
    });
    expect(reset.status).toBe(303);
    expect(reset.headers.get("location")).toBe("/");
    const profile = await browser.get("/profile");
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain(person.email);

    // Every other sign-in ended; the old password no longer works, the new one does.
    expect((await elsewhere.get("/profile")).status).toBe(302);
    expect((await browser.api("GET", "/auth/me", { token })).status).toBe(401);
    const old = await new TestClient(server.baseUrl).postForm("/login", {
      email: person.email,
      password: person.password,
    });
    expect(old.status).toBe(401);
    await signedIn(person.email, "newpassword1");

    // Used: a clear page with the form to ask again, and 400 from the API.
    const used = await new TestClient(server.baseUrl).get(path);
    expect(used.status).toBe(400);
    const usedText = await used.text();
    expect(usedText).toContain(INVALID);
    expect(usedText).toContain('action="/forgot-password"');
    const again = await browser.api("POST", "/auth/reset-password", {
      body: { token: tokenOf(mail), password: "another-pass1" },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(INVALID);

    const changed = await smtp.waitFor(
      (m) => m.to.includes(person.email) && m.subject.includes("password was changed"),
    );
    expect(changed.text).toContain("reset with a link we mailed you");
    expect(linkIn(changed.text, PUBLIC_URL)).toBe(`${PUBLIC_URL}/forgot-password`);

    // The reset mail carried a secret: its body is gone from the outbox once sent.
    await server.jobs!.runDueJobs();
    const rows = await server.database.db("outbox").where({ recipient: person.email, kind: "password-reset" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "sent", textBody: null, htmlBody: null });
    // Only a hash of the token is kept.
    const stored = await server.database.db("password_reset_tokens").where("user_id", person.id);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(mail));
  });

  it("resets through the API with a fresh token; unknown, expired and superseded links are refused", async () => {
    const person = await newCustomer();
    const api = new TestClient(server.baseUrl);
    await api.api("POST", "/auth/forgot-password", { body: { email: person.email } });
    await api.api("POST", "/auth/forgot-password", { body: { email: person.email } });
    const first = tokenOf(await resetMailFor(person.email, 1));
    const second = tokenOf(await resetMailFor(person.email, 2));

    expect(
      (await api.api("POST", "/auth/reset-password", { body: { token: "nope", password: "newpassword1" } })).status,
    ).toBe(400);
    expect((await new TestClient(server.baseUrl).get("/reset-password?token=nope")).status).toBe(400);
    expect((await new TestClient(server.baseUrl).get("/reset-password")).status).toBe(400);

    // An hour later the second link no longer works.
    await server.database.db.raw(
      "UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ? AND created_at = (SELECT max(created_at) FROM password_reset_tokens WHERE user_id = ?)",
      [person.id, person.id],
    );
    const expired = await api.api("POST", "/auth/reset-password", {
      body: { token: second, password: "newpassword1" },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(INVALID);

    const done = await api.api("POST", "/auth/reset-password", { body: { token: first, password: "newpassword1" } });
    expect(done.status).toBe(200);
    expect(done.body.data.user.email).toBe(person.email);
    expect((await api.api("GET", "/auth/me", { token: done.body.data.token })).status).toBe(200);

    // A link issued before a password change stops working after it.
    await api.api("POST", "/auth/forgot-password", { body: { email: person.email } });
    const third = tokenOf(await resetMailFor(person.email, 3));
    const change = await api.api("PUT", "/auth/change-password", {
      token: done.body.data.token,
      body: { currentPassword: "newpassword1", newPassword: "newpassword2" },
    });
    expect(change.status).toBe(200);
    expect(
      (await api.api("POST", "/auth/reset-password", { body: { token: third, password: "newpassword3" } })).status,
    ).toBe(400);
    const changedMails = () => smtp.to(person.email).filter((mail) => mail.subject.includes("password was changed"));
    await smtp.waitFor(() => changedMails().length >= 2);
    expect(changedMails()[1]!.text).toContain("was changed on");
  });

  it("lets an admin send a reset link from Manage Users", async () => {
    const person = await newCustomer();
    const admin = await signedIn("admin@reset.test", "adminpass1");
    const users = await (await admin.get("/admin/users")).text();
    expect(users).toContain("Send reset link");
    const sent = await admin.postForm("/admin/users", { userId: person.id, returnTo: "/admin/users?role=customer" });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe("/admin/users?role=customer");
    expect(await (await admin.get("/admin/users?role=customer")).text()).toContain(
      `A password reset link was sent to ${person.email}`,
    );
    const mail = await resetMailFor(person.email);
    expect(mail.text).toContain("Our team sent you this link");
    const unknown = await admin.postForm("/admin/users", { userId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.headers.get("location")).toBe("/admin/users");
    expect(await (await admin.get("/admin/users")).text()).toContain("User not found");
  });
});

describe("limits", () => {
  it("mails a reset link at most once a quarter hour per email, answering the same every time, and limits each client address", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on", PUBLIC_URL, SMTP_URL: smtp.url });
    try {
      await insertUser(limited, { name: "Bombed", email: "bombed@reset.test", password: "bombedpass1" });
      const api = new TestClient(limited.baseUrl);
      const resetMails = async (recipient: string) =>
        (await limited.database.db("outbox").where({ recipient, kind: "password-reset" })).length;
      // Someone asks for the owner's link again and again, through the API and the page.
      for (let i = 0; i < 3; i++) {
        const answer = await api.api("POST", "/auth/forgot-password", { body: { email: "bombed@reset.test" } });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ success: true, message: ANSWER, data: null });
        const page = new TestClient(limited.baseUrl);
        expect((await page.postForm("/forgot-password", { email: "BOMBED@reset.test" })).status).toBe(303);
        expect(await (await page.get("/forgot-password")).text()).toContain(ANSWER);
      }
      // One mail reaches the owner's inbox; an address without an account is answered the same.
      expect(await resetMails("bombed@reset.test")).toBe(1);
      for (let i = 0; i < 6; i++) {
        const answer = await api.api("POST", "/auth/forgot-password", { body: { email: "nobody@reset.test" } });
        expect(answer.body).toEqual({ success: true, message: ANSWER, data: null });
      }
      expect(await resetMails("nobody@reset.test")).toBe(0);

      // 12 requests so far from this client address: 8 more pass, then 429 on the API and the page.
      const more: number[] = [];
      for (let i = 0; i < 9; i++) {
        more.push((await api.api("POST", "/auth/forgot-password", { body: { email: `other${i}@reset.test` } })).status);
      }
      expect(more).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
      const page = await new TestClient(limited.baseUrl).postForm("/forgot-password", { email: "someone@reset.test" });
      expect(page.status).toBe(429);
      expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
