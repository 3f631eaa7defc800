/**
 * Changing the email (docs/product.md, "Accounts"), through a real SMTP server: a stolen session
 * cannot take the account. A new email needs the current password (missing or wrong: 400 beside
 * `currentPassword`, nothing saved; counted with password changes before bcrypt) and takes effect
 * only when the single-use link mailed to it is used; until then the account keeps its address
 * (log-in, reset links and stock alerts stay with it) and shows `pendingEmail`. A confirmed
 * change tells the old address, ends every other session and token, and takes the waiting stock
 * alerts along; the link's page changes nothing on GET and needs no sign-in; a used, expired,
 * replaced or cancelled link, or one asked before a password change, does nothing; an address
 * another account took meanwhile is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer, linkIn, type ReceivedMail } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example";
const LINK_INVALID = "This confirmation link is invalid or has expired";
const NEEDS_PASSWORD = "Enter your current password to change your email";

let server: TestServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL }, { mail: { pollMs: 50 } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

let people = 0;
async function newCustomer(password = "rightpass1") {
  people += 1;
  const email = `person${people}@old.test`;
  const name = `Person ${people}`;
  const id = await insertUser(server, { name, email, password });
  return { id, email, name, password, newEmail: `person${people}@new.test` };
}

async function signedIn(email: string, password: string, target = server) {
  const client = new TestClient(target.baseUrl);
  const response = await client.postForm("/login", { email, password });
  expect(response.status, `log-in of ${email}`).toBe(303);
  return client;
}

/** The profile form as the edit page posts it. */
function profileForm(person: { name: string }, fields: Record<string, string>) {
  return { name: person.name, phone: "", street: "", city: "", state: "", zipCode: "", country: "", ...fields };
}

const linkMails = (email: string) => smtp.to(email).filter((mail) => mail.subject === "Confirm your new Waqt email");

async function linkMailTo(email: string, count = 1): Promise<ReceivedMail> {
  await smtp.waitFor(() => linkMails(email).length >= count);
  return linkMails(email)[count - 1]!;
}

/** The site path of the confirmation link in a mail (/confirm-email?token=…). */
const linkPath = (mail: ReceivedMail) =>
  linkIn(mail.text, `${PUBLIC_URL}/confirm-email?token=`).slice(PUBLIC_URL.length);
const tokenOf = (mail: ReceivedMail) => new URL(linkPath(mail), PUBLIC_URL).searchParams.get("token")!;

/** Uses a link as its page's button does (the token in the body, from any browser). */
function confirm(client: TestClient, mail: ReceivedMail) {
  return client.postForm("/confirm-email", { token: tokenOf(mail) });
}

/** The database's business tables once every queued mail is sent (the sender would change the outbox meanwhile). */
async function settledFingerprint() {
  await server.jobs!.runDueJobs();
  return databaseFingerprint(server);
}

async function storedEmail(userId: string): Promise<string> {
  return (await server.database.db("users").where("id", userId).first()).email;
}

describe("PUT /auth/update-profile with a new email", () => {
  it("answers 400 on currentPassword and changes nothing when the password is missing or wrong", async () => {
    const person = await newCustomer();
    const client = new TestClient(server.baseUrl);
    const token = await apiToken(client, person.email, person.password);
    const body = { name: "Taken Over", email: "thief@new.test", phone: "0300 1111111" };
    const before = await settledFingerprint();

    const missing = await client.api("PUT", "/auth/update-profile", { token, body });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      message: NEEDS_PASSWORD,
      errors: [{ field: "currentPassword", message: NEEDS_PASSWORD }],
    });
    const wrong = await client.api("PUT", "/auth/update-profile", {
      token,
      body: { ...body, currentPassword: "wrongpass1" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: "currentPassword", message: "Current password is incorrect" }]);

    // Not the email, not the name, no mail: nothing.
    expect(await settledFingerprint()).toEqual(before);
    const me = await client.api("GET", "/auth/me", { token });
    expect(me.body.data.user).toMatchObject({ name: person.name, email: person.email, pendingEmail: null });
  });

  it("with the password: 200, the profile saved, the email pending until its link is used", async () => {
    const person = await newCustomer();
    const client = new TestClient(server.baseUrl);
    const token = await apiToken(client, person.email, person.password);
    const saved = await client.api("PUT", "/auth/update-profile", {
      token,
      body: {
        name: "Renamed Person",
        email: person.newEmail.toUpperCase(),
        phone: "0300 2222222",
        address: { city: "Multan" },
        currentPassword: person.password,
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toContain(person.newEmail);
    expect(saved.body.data.user).toMatchObject({
      name: "Renamed Person",
      email: person.email,
      pendingEmail: person.newEmail,
      phone: "0300 2222222",
      address: { city: "Multan" },
    });
    expect((await client.api("GET", "/auth/me", { token })).body.data.user.pendingEmail).toBe(person.newEmail);
    expect(await storedEmail(person.id)).toBe(person.email);

    // The account keeps its address: log-in and reset links stay with the old one.
    expect(
      (await client.api("POST", "/auth/login", { body: { email: person.newEmail, password: person.password } })).status,
    ).toBe(401);
    const login = await client.api("POST", "/auth/login", { body: { email: person.email, password: person.password } });
    expect(login.body.data.user.pendingEmail).toBe(person.newEmail);
    await client.api("POST", "/auth/forgot-password", { body: { email: person.newEmail } });
    await client.api("POST", "/auth/forgot-password", { body: { email: person.email } });
    await smtp.waitFor((mail) => mail.to.includes(person.email) && mail.subject.startsWith("Reset your"));

    // The link went to the new address only, carries 32 random bytes and works without a token.
    const mail = await linkMailTo(person.newEmail);
    expect(mail.text).toContain("Renamed Person");
    expect(mail.text).toContain("within 24 hours");
    expect(Buffer.from(tokenOf(mail), "base64url")).toHaveLength(32);
    await server.jobs!.runDueJobs();
    expect(smtp.to(person.newEmail).filter((m) => m.subject.startsWith("Reset your"))).toEqual([]);

    // The same email again (what every old client sends) needs no password and keeps the change waiting.
    const unchanged = await client.api("PUT", "/auth/update-profile", {
      token,
      body: { name: "Renamed Again", email: person.email },
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.message).toBe("Profile updated successfully");
    expect(unchanged.body.data.user).toMatchObject({ name: "Renamed Again", pendingEmail: person.newEmail });

    // A waiting change does not hold the address: anyone may still sign up with it.
    expect(
      (
        await client.api("POST", "/auth/register", {
          body: { name: "Squatter", email: person.newEmail, password: "x".repeat(8) },
        })
      ).status,
    ).toBe(201);
  });

  it("refuses an address another account has (409) only after the password is checked", async () => {
    const [person, other] = [await newCustomer(), await newCustomer()];
    const client = new TestClient(server.baseUrl);
    const token = await apiToken(client, person.email, person.password);
    const guess = await client.api("PUT", "/auth/update-profile", {
      token,
      body: { name: person.name, email: other.email, currentPassword: "wrongpass1" },
    });
    expect(guess.status).toBe(400);
    const taken = await client.api("PUT", "/auth/update-profile", {
      token,
      body: { name: person.name, email: other.email, currentPassword: person.password },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("An account with this email already exists");
    expect(await server.database.db("email_changes").where("user_id", person.id)).toEqual([]);
  });
});

describe("the profile pages", () => {
  it("ask for the current password beside the field, keep what was typed, and change nothing", async () => {
    const person = await newCustomer();
    const browser = await signedIn(person.email, person.password);
    const form = await (await browser.get("/profile/edit")).text();
    expect(form).toContain('name="currentPassword"');
    expect(form).toContain("Current Password");
    const before = await settledFingerprint();
    for (const currentPassword of ["", "wrongpass1"]) {
      const refused = await browser.postForm(
        "/profile/edit",
        profileForm(person, { name: "Typed Name", email: person.newEmail, city: "Quetta", currentPassword }),
      );
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toContain(currentPassword ? "Current password is incorrect" : NEEDS_PASSWORD);
      expect(html).toMatch(/id="field-currentPassword-error"/);
      expect(html).toContain('value="Typed Name"');
      expect(html).toContain(`value="${person.newEmail}"`);
      expect(html).not.toContain('value="wrongpass1"');
    }
    expect(await settledFingerprint()).toEqual(before);
  });

  it("save a name without a password as before, and a new email with it: the banner says where the link went", async () => {
    const person = await newCustomer();
    const browser = await signedIn(person.email, person.password);
    const plain = await browser.postForm(
      "/profile/edit",
      profileForm(person, { name: "Plain Save", email: person.email }),
    );
    expect(plain.status).toBe(303);
    expect(await (await browser.get("/profile")).text()).toContain("Profile updated successfully!");

    const changed = await browser.postForm(
      "/profile/edit",
      profileForm(person, { email: person.newEmail, currentPassword: person.password }),
    );
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe("/profile");
    const profile = await (await browser.get("/profile")).text();
    expect(profile).toContain(`We sent a link to ${person.newEmail}. Your email changes to it once you open the link.`);
    expect(profile).not.toContain("Profile updated successfully!");
    expect(profile).toContain("Email change waiting");
    expect(profile).toContain("Resend Link");
    expect(profile).toContain("Cancel Email Change");
    await linkMailTo(person.newEmail);

    // Resend: a new link, and the first one no longer works.
    const resent = await browser.postForm("/profile", { intent: "resend-email-change" });
    expect(resent.status).toBe(303);
    expect(await (await browser.get("/profile")).text()).toContain(`We sent the link to ${person.newEmail} again.`);
    const [first, second] = [await linkMailTo(person.newEmail, 1), await linkMailTo(person.newEmail, 2)];
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    expect((await new TestClient(server.baseUrl).get(linkPath(first))).status).toBe(400);
    expect((await new TestClient(server.baseUrl).get(linkPath(second))).status).toBe(200);

    // Cancel: the change is gone, and so is its link.
    const cancelled = await browser.postForm("/profile", { intent: "cancel-email-change" });
    expect(cancelled.status).toBe(303);
    const after = await (await browser.get("/profile")).text();
    expect(after).toContain(`the change to ${person.newEmail} was cancelled`);
    expect(after).not.toContain("Email change waiting");
    expect((await confirm(new TestClient(server.baseUrl), second)).status).toBe(400);
    expect(await storedEmail(person.id)).toBe(person.email);
    // Nothing left to cancel or resend: said, nothing sent.
    await browser.postForm("/profile", { intent: "resend-email-change" });
    expect(await (await browser.get("/profile")).text()).toContain("No email change is waiting for confirmation");
  });
});

describe("the confirmation link", () => {
  it("changes nothing when opened; its button makes the address the account's, ends every sign-in, and tells the old address", async () => {
    const person = await newCustomer();
    const requester = await signedIn(person.email, person.password);
    const elsewhere = await signedIn(person.email, person.password);
    const token = await apiToken(new TestClient(server.baseUrl), person.email, person.password);
    await requester.postForm(
      "/profile/edit",
      profileForm(person, { email: person.newEmail, currentPassword: person.password }),
    );
    const mail = await linkMailTo(person.newEmail);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/confirm-email?token=`);

    // Opened on another device, signed out: a page with a button; opening it twice changes nothing.
    const phone = new TestClient(server.baseUrl);
    const before = await settledFingerprint();
    for (let i = 0; i < 2; i++) {
      const page = await phone.get(linkPath(mail));
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-store");
      const html = await page.text();
      expect(html).toContain("Confirm your new email");
      expect(html).toContain(person.newEmail);
      expect(html).toContain('action="/confirm-email"');
    }
    expect(await settledFingerprint()).toEqual(before);

    const confirmed = await confirm(phone, mail);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/login");
    expect(await (await phone.get("/login")).text()).toContain(`Your email is now ${person.newEmail}. Log in with it.`);
    expect(await storedEmail(person.id)).toBe(person.newEmail);

    // Every sign-in made before ends: both browsers and the token.
    expect((await requester.get("/profile")).status).toBe(302);
    expect((await elsewhere.get("/profile")).status).toBe(302);
    expect((await phone.api("GET", "/auth/me", { token })).status).toBe(401);
    // The new address signs in with the same password; the old one no longer does.
    const fresh = await signedIn(person.newEmail, person.password);
    const profile = await (await fresh.get("/profile")).text();
    expect(profile).toContain(person.newEmail);
    expect(profile).not.toContain("Email change waiting");
    expect(
      (await phone.api("POST", "/auth/login", { body: { email: person.email, password: person.password } })).status,
    ).toBe(401);

    // The old address is told when, to what, and how to reach the store.
    const notice = await smtp.waitFor(
      (m) => m.to.includes(person.email) && m.subject === "Your Waqt email was changed",
    );
    expect(notice.text).toContain(`from ${person.email} to ${person.newEmail}`);
    expect(notice.text).toMatch(/on \d{1,2}-\w{3}-\d{4}, \d{1,2}:\d{2}\s?[ap]m \(Pakistan time\)/i);
    expect(notice.text).toContain(server.config.store.email);
    expect(notice.text).toContain(server.config.store.phone);
    expect(linkIn(notice.text, PUBLIC_URL)).toBe(`${PUBLIC_URL}/contact`);

    // Used: a clear page, and the button does nothing.
    const used = await phone.get(linkPath(mail));
    expect(used.status).toBe(400);
    expect(await used.text()).toContain(LINK_INVALID);
    const again = await confirm(phone, mail);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(LINK_INVALID);

    // The link's mail body is purged once sent; only a hash of its token is kept.
    await server.jobs!.runDueJobs();
    const rows = await server.database.db("outbox").where({ recipient: person.newEmail, kind: "email-change-link" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "sent", textBody: null, htmlBody: null });
    const stored = await server.database.db("email_changes").where("user_id", person.id);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(mail));
  });

  it("keeps the confirming browser signed in when it is the account's, and ends every other", async () => {
    const person = await newCustomer();
    const [thisBrowser, other] = [
      await signedIn(person.email, person.password),
      await signedIn(person.email, person.password),
    ];
    await thisBrowser.postForm(
      "/profile/edit",
      profileForm(person, { email: person.newEmail, currentPassword: person.password }),
    );
    const confirmed = await confirm(thisBrowser, await linkMailTo(person.newEmail));
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/profile");
    const profile = await thisBrowser.get("/profile");
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain(`Your email is now ${person.newEmail}.`);
    expect((await other.get("/profile")).status).toBe(302);
  });

  it("does nothing once expired, replaced by another change, or after a password change", async () => {
    const person = await newCustomer();
    const client = new TestClient(server.baseUrl);
    let token = await apiToken(client, person.email, person.password);
    const ask = (email: string) =>
      client.api("PUT", "/auth/update-profile", {
        token,
        body: { name: person.name, email, currentPassword: person.password },
      });

    // Replaced: a second change ends the first one's link.
    expect((await ask("first@new.test")).status).toBe(200);
    expect((await ask(person.newEmail)).status).toBe(200);
    const replaced = await linkMailTo("first@new.test");
    expect((await confirm(client, replaced)).status).toBe(400);

    // Expired: a day later the link is dead, and nothing is pending any more.
    const expiring = await linkMailTo(person.newEmail);
    await server.database.db.raw(
      "UPDATE email_changes SET expires_at = now() - interval '1 second' WHERE user_id = ? AND state = 'pending'",
      [person.id],
    );
    expect((await new TestClient(server.baseUrl).get(linkPath(expiring))).status).toBe(400);
    expect((await confirm(client, expiring)).status).toBe(400);
    expect((await client.api("GET", "/auth/me", { token })).body.data.user.pendingEmail).toBeNull();

    // A password change ends a waiting change: whoever asked it no longer can finish it.
    expect((await ask(person.newEmail)).status).toBe(200);
    const beforeChange = await linkMailTo(person.newEmail, 2);
    const changed = await client.api("PUT", "/auth/change-password", {
      token,
      body: { currentPassword: person.password, newPassword: "otherpass1" },
    });
    expect(changed.status).toBe(200);
    token = changed.body.data.token;
    expect((await client.api("GET", "/auth/me", { token })).body.data.user.pendingEmail).toBeNull();
    expect((await confirm(client, beforeChange)).status).toBe(400);
    expect(await storedEmail(person.id)).toBe(person.email);
    expect((await new TestClient(server.baseUrl).get("/confirm-email")).status).toBe(400);
    expect((await new TestClient(server.baseUrl).get("/confirm-email?token=nope")).status).toBe(400);
  });

  it("refuses clearly an address another account took meanwhile, and changes nothing", async () => {
    const [first, second] = [await newCustomer(), await newCustomer()];
    const wanted = `wanted${people}@new.test`;
    for (const person of [first, second]) {
      const browser = await signedIn(person.email, person.password);
      const asked = await browser.postForm(
        "/profile/edit",
        profileForm(person, { email: wanted, currentPassword: person.password }),
      );
      expect(asked.status).toBe(303);
    }
    const [firstLink, secondLink] = [await linkMailTo(wanted, 1), await linkMailTo(wanted, 2)];
    const guest = new TestClient(server.baseUrl);
    expect((await confirm(guest, firstLink)).status).toBe(303);
    const before = await settledFingerprint();
    const refused = await confirm(guest, secondLink);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(`Another account now uses ${wanted}, so it cannot become your email.`);
    expect(await settledFingerprint()).toEqual(before);
    expect(await storedEmail(second.id)).toBe(second.email);
  });

  it("works once when its button is pressed twice at the same moment", async () => {
    const person = await newCustomer();
    const client = new TestClient(server.baseUrl);
    const token = await apiToken(client, person.email, person.password);
    await client.api("PUT", "/auth/update-profile", {
      token,
      body: { name: person.name, email: person.newEmail, currentPassword: person.password },
    });
    const mail = await linkMailTo(person.newEmail);
    const answers = await Promise.all([
      confirm(new TestClient(server.baseUrl), mail),
      confirm(new TestClient(server.baseUrl), mail),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400]);
    await smtp.waitFor((m) => m.to.includes(person.email) && m.subject === "Your Waqt email was changed");
    await server.jobs!.runDueJobs();
    expect(smtp.to(person.email).filter((m) => m.subject === "Your Waqt email was changed")).toHaveLength(1);
  });
});

describe("stock alerts follow confirmed addresses only", () => {
  it("lists and asks with the account's address while a change waits, and moves the waiting alerts when it is confirmed", async () => {
    const person = await newCustomer();
    const [oldOnly, both, pendingOnly] = await insertProducts(server, [
      { name: "Alert Old Address", stock: 0 },
      { name: "Alert Both Addresses", stock: 0 },
      { name: "Alert Pending Address", stock: 0 },
    ]);
    const browser = await signedIn(person.email, person.password);
    await browser.postForm(`/products/${oldOnly}`, {});
    await browser.postForm(`/products/${both}`, {});
    // Someone left the new address for two watches before it was this account's.
    const guest = new TestClient(server.baseUrl);
    await guest.postForm(`/products/${both}`, { email: person.newEmail });
    await guest.postForm(`/products/${pendingOnly}`, { email: person.newEmail });

    await browser.postForm(
      "/profile/edit",
      profileForm(person, { email: person.newEmail, currentPassword: person.password }),
    );
    // While the change waits, the profile shows the account's own address's alerts, never the pending one's,
    // and Notify me uses the account's address.
    const waiting = await (await browser.get("/profile")).text();
    expect(waiting).toContain("Alert Old Address");
    expect(waiting).not.toContain("Alert Pending Address");
    const [soldOut] = await insertProducts(server, [{ name: "Alert Asked While Pending", stock: 0 }]);
    await browser.postForm(`/products/${soldOut}`, { email: person.newEmail });
    expect(await server.database.db("stock_alerts").where("product_id", soldOut).pluck("email")).toEqual([
      person.email,
    ]);

    await confirm(browser, await linkMailTo(person.newEmail));
    const alerts = await server.database
      .db("stock_alerts")
      .whereIn("product_id", [oldOnly, both, pendingOnly, soldOut])
      .whereIn("state", ["waiting", "due"])
      .select("email");
    expect(alerts.map((row) => row.email)).toEqual(Array(4).fill(person.newEmail));
    const profile = await (await browser.get("/profile")).text();
    for (const name of [
      "Alert Old Address",
      "Alert Both Addresses",
      "Alert Pending Address",
      "Alert Asked While Pending",
    ]) {
      expect(profile).toContain(name);
    }
    expect(
      await server.database.db("stock_alerts").where({ email: person.email }).whereIn("state", ["waiting", "due"]),
    ).toEqual([]);
  });
});

describe("limits", () => {
  it("counts password guesses with password changes (10 per user a quarter hour, before bcrypt): 429 with Retry-After", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on", PUBLIC_URL });
    try {
      await insertUser(limited, { name: "Guessed Email", email: "guessed@old.test", password: "rightpass1" });
      const browser = await signedIn("guessed@old.test", "rightpass1", limited);
      const token = await apiToken(browser, "guessed@old.test", "rightpass1");
      for (let attempt = 0; attempt < 5; attempt++) {
        const page = await browser.postForm(
          "/profile/edit",
          profileForm({ name: "Guessed Email" }, { email: "thief@new.test", currentPassword: "wrongpass1" }),
        );
        expect(page.status).toBe(400);
        const api = await browser.api("PUT", "/auth/change-password", {
          token,
          body: { currentPassword: "wrongpass1", newPassword: "newpass123" },
        });
        expect(api.status).toBe(401);
      }
      const page = await browser.postForm(
        "/profile/edit",
        profileForm({ name: "Guessed Email" }, { email: "thief@new.test", currentPassword: "rightpass1" }),
      );
      expect(page.status).toBe(429);
      expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await page.text()).toContain("Too many password attempts");
      const api = await browser.api("PUT", "/auth/update-profile", {
        token,
        body: { name: "Guessed Email", email: "thief@new.test", currentPassword: "rightpass1" },
      });
      expect(api.status).toBe(429);
      expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.database.db("email_changes")).toEqual([]);
      // Saving the profile without a new email is not a password attempt.
      const plain = await browser.api("PUT", "/auth/update-profile", {
        token,
        body: { name: "Still Me", email: "guessed@old.test" },
      });
      expect(plain.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("mails at most 5 confirmation links an hour per user, asked or sent again", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on", PUBLIC_URL });
    try {
      await insertUser(limited, { name: "Many Links", email: "links@old.test", password: "rightpass1" });
      const browser = await signedIn("links@old.test", "rightpass1", limited);
      const token = await apiToken(browser, "links@old.test", "rightpass1");
      expect(
        (
          await browser.api("PUT", "/auth/update-profile", {
            token,
            body: { name: "Many Links", email: "links@new.test", currentPassword: "rightpass1" },
          })
        ).status,
      ).toBe(200);
      for (let resend = 0; resend < 5; resend++) await browser.postForm("/profile", { intent: "resend-email-change" });
      expect(await (await browser.get("/profile")).text()).toContain("Too many confirmation links asked for");
      expect(await limited.database.db("outbox").where({ kind: "email-change-link" })).toHaveLength(5);
      const asked = await browser.api("PUT", "/auth/update-profile", {
        token,
        body: { name: "Many Links", email: "links2@new.test", currentPassword: "rightpass1" },
      });
      expect(asked.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
