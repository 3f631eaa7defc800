/**
 * The outbox's delivery (docs/decisions/2026-11-23-outbox.md), against a real SMTP server: the
 * mail server down while orders are placed and back later (every mail arrives, once); two app
 * servers sending from one outbox (never one message twice); an app server stopped with mail
 * waiting (the next one sends it); a refusal for good and the last attempt (failed, shown to the
 * admins, retried by them; a reset link's body purged); .eml files without SMTP_URL, removed
 * after MAIL_FILES_KEEP_DAYS; on the job queue (docs/decisions/2026-11-25-job-queue.md), no mail and no job
 * for a transaction that rolled back, and two servers woken by the commit sending each mail once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../../server/modules/mail/outbox";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestSmtpServer } from "../support/smtp-server";
import { startTestServer, type TestServer } from "../support/test-server";

const address = { street: "9 Jail Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await TestSmtpServer.start();
});
afterAll(async () => {
  await smtp?.stop();
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `count` customers, each signed in through the API with a watch in the cart; `place()` orders
 * for all of them (quick: the slow part, hashing passwords, is done before).
 */
async function customersReadyToOrder(server: TestServer, tag: string, count: number) {
  const [productId] = await insertProducts(server, [{ name: `${tag} Watch`, stock: 1000 }]);
  const customers: { email: string; client: TestClient; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${tag}${i}@delivery.test`;
    await insertUser(server, { name: `${tag} ${i}`, email, password: "customerpass1" });
    const client = new TestClient(server.baseUrl);
    const token = await apiToken(client, email, "customerpass1");
    await client.api("POST", "/cart", { token, body: { productId, quantity: 1 } });
    customers.push({ email, client, token });
  }
  return {
    emails: customers.map((customer) => customer.email),
    async place() {
      for (const { client, token } of customers) {
        expect((await client.api("POST", "/orders", { token, body: { address } })).status).toBe(201);
      }
    },
  };
}

/** `count` orders by as many customers through the API; answers the customers' addresses. */
async function placeOrders(server: TestServer, tag: string, count: number): Promise<string[]> {
  const ready = await customersReadyToOrder(server, tag, count);
  await ready.place();
  return ready.emails;
}

/** Several servers, outages and retries: more than the default time on a busy machine. */
const SLOW = { timeout: 120_000 };

const outboxStates = async (server: TestServer, recipients: string[]) =>
  (await server.database.db("outbox").whereIn("recipient", recipients).select("state")).map((row) => row.state);

describe("an SMTP outage", SLOW, () => {
  it("keeps the mail of orders placed while the mail server is down, and delivers each once when it is back", async () => {
    const server = await startTestServer(
      { SMTP_URL: smtp.url, MAIL_RETRY_SECONDS: "0.1", MAIL_MAX_ATTEMPTS: "30", STORE_EMAIL: "store@outage.test" },
      { mail: { pollMs: 50 } },
    );
    try {
      await insertUser(server, {
        name: "Outage Admin",
        email: "admin@outage.test",
        password: "adminpass1",
        role: "admin",
      });
      const admin = new TestClient(server.baseUrl);
      await admin.postForm("/login", { email: "admin@outage.test", password: "adminpass1" });
      const ready = await customersReadyToOrder(server, "outage", 5);
      const customers = ready.emails;
      await smtp.stop();
      await ready.place();
      // The sender has tried and failed; the mails wait in the outbox.
      await until(async () => {
        const rows = await server.database.db("outbox").whereIn("recipient", customers);
        return rows.length === 5 && rows.every((row) => row.state === "queued" && row.attempts >= 1);
      }, "failed attempts while the mail server is down");
      expect(smtp.to(customers[0]!)).toEqual([]);
      const page = await (await admin.get("/admin/outbox?state=queued")).text();
      expect(page).toContain(customers[0]);
      expect(page).toMatch(/Attempt \d+ failed: [^<]*ECONNREFUSED/);

      await smtp.restart();
      await until(
        async () => (await outboxStates(server, [...customers, "store@outage.test"])).every((s) => s === "sent"),
        "delivery after the outage",
      );
      for (const email of customers) expect(smtp.to(email), email).toHaveLength(1);
      expect(smtp.to("store@outage.test")).toHaveLength(5);
      const ids = smtp.received.map((mail) => mail.messageId);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await smtp.restart();
      await server.close();
    }
  });

  it("fails a message for good after its last attempt, or at once when the server refuses it; an admin retries it", async () => {
    const server = await startTestServer(
      { SMTP_URL: smtp.url, MAIL_RETRY_SECONDS: "0.05", MAIL_MAX_ATTEMPTS: "3" },
      { mail: { pollMs: 50 } },
    );
    try {
      await insertUser(server, { name: "Fail Admin", email: "admin@fail.test", password: "adminpass1", role: "admin" });
      const userId = await insertUser(server, {
        name: "Refused",
        email: "refused@fail.test",
        password: "customerpass1",
      });
      smtp.refuse.add("refused@fail.test");
      const [orderCustomer] = await placeOrders(server, "refusal", 1);
      smtp.refuse.add(orderCustomer!);
      // A reset link to a refused address: failed at once, and its body (the link) purged.
      await server.services.passwordChanges.sendResetLink({ userId });
      await until(
        async () => (await outboxStates(server, ["refused@fail.test", orderCustomer!])).every((s) => s === "failed"),
        "refusals",
      );
      const rows = await server.database.db("outbox").whereIn("recipient", ["refused@fail.test", orderCustomer!]);
      for (const row of rows) {
        expect(row.attempts).toBe(1);
        expect(row.lastError).toContain("550");
      }
      const reset = rows.find((row) => row.kind === "password-reset")!;
      expect(reset).toMatchObject({ textBody: null, htmlBody: null });
      const order = rows.find((row) => row.kind === "order-placed")!;
      expect(order.textBody).toContain("Cash on Delivery");

      const admin = new TestClient(server.baseUrl);
      await admin.postForm("/login", { email: "admin@fail.test", password: "adminpass1" });
      const dashboard = await (await admin.get("/admin")).text();
      expect(dashboard).toContain('href="/admin/outbox?state=failed"');
      expect(dashboard).toContain("2 failed");
      const page = await (await admin.get("/admin/outbox?state=failed")).text();
      expect(page).toContain("refused@fail.test");
      expect(page).toContain("Reset your Waqt password");
      expect(page).toContain(order.subject);
      expect(page).toContain("Mailbox unavailable");
      expect(page).toContain("its reset link was deleted");
      // Never a body.
      expect(page).not.toContain("Pay the courier");
      expect(page).not.toContain("What happens next");

      // The purged one cannot be retried; the other goes back in the queue and out.
      const purged = await admin.postForm("/admin/outbox", { messageId: reset.id });
      expect(purged.status).toBe(303);
      expect(await (await admin.get("/admin/outbox?state=failed")).text()).toContain(
        "send a new link from Manage Users",
      );
      smtp.refuse.delete(orderCustomer!);
      const retried = await admin.postForm("/admin/outbox", { messageId: order.id });
      expect(retried.status).toBe(303);
      await until(async () => (await outboxStates(server, [orderCustomer!])).every((s) => s === "sent"), "the retry");
      expect(smtp.to(orderCustomer!)).toHaveLength(1);
      const notFailed = await admin.postForm("/admin/outbox", { messageId: order.id });
      expect(notFailed.status).toBe(303);
      expect(await (await admin.get("/admin/outbox?state=failed")).text()).toContain(
        "Only a message that failed can be sent again",
      );

      // The mail server away for good: three attempts, then failed.
      await smtp.stop();
      const [late] = await placeOrders(server, "lastattempt", 1);
      await until(async () => (await outboxStates(server, [late!])).every((s) => s === "failed"), "the last attempt");
      const [row] = await server.database.db("outbox").where("recipient", late!);
      expect(row.attempts).toBe(3);
    } finally {
      smtp.refuse.clear();
      await smtp.restart();
      await server.close();
    }
  });
});

describe("several app servers", SLOW, () => {
  it("never send one message twice, and the next server sends what a stopped one left", async () => {
    const slow = smtp;
    const first = await startTestServer({ SMTP_URL: slow.url }, { mail: { pollMs: 20 } });
    const second = await startTestServer({ SMTP_URL: slow.url }, { mail: { pollMs: 20 }, shareDatabaseOf: first });
    let third: TestServer | null = null;
    try {
      const recipients = Array.from({ length: 60 }, (_, i) => `twice${i}@delivery.test`);
      await first.database.db("outbox").insert(
        recipients.map((recipient) => ({
          kind: "new-order",
          recipient,
          subject: `Message for ${recipient}`,
          textBody: "Hello",
          htmlBody: "<p>Hello</p>",
        })),
      );
      // Both senders (and a test's own passes) at once.
      await Promise.all([first.jobs!.runDueJobs(), second.jobs!.runDueJobs(), first.jobs!.runDueJobs()]);
      await until(async () => (await outboxStates(first, recipients)).every((s) => s === "sent"), "60 messages");
      for (const recipient of recipients) expect(slow.to(recipient), recipient).toHaveLength(1);

      // A server stopped while mail waits (the mail server down): the next one sends it.
      await slow.stop();
      await second.jobs!.stop();
      await first.jobs!.stop();
      const waiting = Array.from({ length: 5 }, (_, i) => `resumed${i}@delivery.test`);
      await first.database.db("outbox").insert(
        waiting.map((recipient) => ({
          kind: "new-order",
          recipient,
          subject: "Resumed",
          textBody: "x",
          htmlBody: "x",
        })),
      );
      await slow.restart();
      third = await startTestServer({ SMTP_URL: slow.url }, { mail: { pollMs: 20 }, shareDatabaseOf: first });
      await until(async () => (await outboxStates(first, waiting)).every((s) => s === "sent"), "the resumed messages");
      for (const recipient of waiting) expect(slow.to(recipient)).toHaveLength(1);
    } finally {
      await slow.restart();
      await third?.close();
      await second.close();
      await first.close();
    }
  });
});

describe("the job queue", SLOW, () => {
  /** The waiting send jobs, by their keys (outbox:<id>). */
  const sendJobs = async (server: TestServer) =>
    (
      await server.database.db.raw("SELECT key AS id FROM graphile_worker.jobs WHERE task_identifier = 'send-mail'")
    ).rows.map((row: { id: string }) => row.id) as string[];

  it("never sends a mail written in a transaction that rolled back, and has no job for it", async () => {
    const server = await startTestServer({ SMTP_URL: smtp.url }, { mail: { pollMs: 50 } });
    try {
      const mail = (to: string) => ({
        kind: "new-order" as const,
        to,
        subject: `For ${to}`,
        text: "Hello",
        html: "<p>Hello</p>",
      });
      await server.database.db
        .transaction(async (trx) => {
          await queueMail(trx, mail("rolled-back@queue.test"));
          throw new Error("the order failed after its mail was written");
        })
        .catch(() => {});
      await server.database.db.transaction((trx) => queueMail(trx, mail("committed@queue.test")));
      await until(
        async () => (await outboxStates(server, ["committed@queue.test"]))[0] === "sent",
        "the committed mail",
      );
      await server.jobs!.runDueJobs();
      expect(smtp.to("committed@queue.test")).toHaveLength(1);
      expect(smtp.to("rolled-back@queue.test")).toEqual([]);
      expect(await server.database.db("outbox").where("recipient", "rolled-back@queue.test")).toEqual([]);
      expect(await sendJobs(server)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("gives a send job the message's id alone, never its body (a reset link stays out of the queue's tables)", async () => {
    // No runner: the job waits, and its stored payload is read as written.
    const server = await startTestServer({ SMTP_URL: smtp.url });
    try {
      const userId = await insertUser(server, {
        name: "Secret",
        email: "secret@queue.test",
        password: "customerpass1",
      });
      await server.services.passwordChanges.sendResetLink({ userId });
      const [message] = await server.database.db("outbox").where("recipient", "secret@queue.test");
      expect(message.textBody).toContain("/reset-password?token=");
      const { rows } = await server.database.db.raw(
        `SELECT jobs.payload::text AS payload FROM graphile_worker._private_jobs jobs
           JOIN graphile_worker._private_tasks tasks ON tasks.id = jobs.task_id
          WHERE tasks.identifier = 'send-mail'`,
      );
      expect(rows.map((row: { payload: string }) => JSON.parse(row.payload))).toEqual([{ outboxId: message.id }]);
    } finally {
      await server.close();
    }
  });

  it("two app servers, woken by the commit, send each mail exactly once", async () => {
    // A poll of a minute: the mails can only go out this quickly through the commit's NOTIFY.
    const first = await startTestServer({ SMTP_URL: smtp.url }, { mail: { pollMs: 60_000 } });
    const second = await startTestServer({ SMTP_URL: smtp.url }, { mail: { pollMs: 60_000 }, shareDatabaseOf: first });
    try {
      const recipients = Array.from({ length: 40 }, (_, i) => `woken${i}@queue.test`);
      await first.database.db.transaction((trx) =>
        queueMail(
          trx,
          recipients.map((to) => ({ kind: "new-order" as const, to, subject: `For ${to}`, text: "Hi", html: "Hi" })),
        ),
      );
      await until(
        async () => (await outboxStates(first, recipients)).every((state) => state === "sent"),
        "40 mails",
        20_000,
      );
      for (const recipient of recipients) expect(smtp.to(recipient), recipient).toHaveLength(1);
      expect(await sendJobs(first)).toEqual([]);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe("without SMTP_URL", SLOW, () => {
  it("writes each mail as an .eml file under DATA_DIR/outbox", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-mail-"));
    const server = await startTestServer(
      { DATA_DIR: dataDir, PUBLIC_URL: "https://files.example" },
      { mail: { pollMs: 50 } },
    );
    try {
      expect(server.config.mail.smtpUrl).toBeNull();
      expect(server.config.mail.from).toBe("Waqt <support@waqt.pk>");
      const [customer] = await placeOrders(server, "files", 1);
      const outbox = path.join(dataDir, "outbox");
      await until(
        () => fs.existsSync(outbox) && fs.readdirSync(outbox).filter((f) => f.endsWith(".eml")).length >= 2,
        ".eml files",
      );
      const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
      const contents = files.map((file) => fs.readFileSync(path.join(outbox, file), "utf8"));
      const confirmation = contents.find((text) => text.includes(`To: ${customer}`))!;
      expect(confirmation).toMatch(/^Subject: Your Waqt order #[0-9A-F]{8} is placed$/m);
      expect(confirmation).toContain("From: Waqt <support@waqt.pk>");
      expect(confirmation).toContain("Content-Type: text/plain");
      expect(confirmation).toContain("Content-Type: text/html");
      expect(contents.some((text) => text.includes("To: support@waqt.pk"))).toBe(true);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("removes .eml files older than MAIL_FILES_KEEP_DAYS (7 by default), at start and as they age", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-mail-keep-"));
    const outbox = path.join(dataDir, "outbox");
    fs.mkdirSync(outbox);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const file = (name: string, age: number) => {
      const at = path.join(outbox, name);
      fs.writeFileSync(at, "To: someone@keep.test\n\nA reset link\n");
      fs.utimesSync(at, daysAgo(age), daysAgo(age));
      return at;
    };
    const old = file("2026-11-01T10-00-00-000Z-old.eml", 8);
    const stopped = file(".2026-11-01T10-00-00-000Z-stopped.eml.tmp", 8);
    const recent = file("2026-11-20T10-00-00-000Z-recent.eml", 6);
    const notOurs = file("notes.txt", 30);
    const server = await startTestServer({ DATA_DIR: dataDir }, { mail: { pollMs: 50, fileSweepMs: 100 } });
    try {
      expect(server.config.mail.filesKeepDays).toBe(7);
      await until(() => !fs.existsSync(old) && !fs.existsSync(stopped), "the old files removed at start");
      expect(fs.existsSync(recent)).toBe(true);
      expect(fs.existsSync(notOurs)).toBe(true);
      // A file that passes the limit while the store runs goes at the next sweep; new mail stays.
      fs.utimesSync(recent, daysAgo(7.01), daysAgo(7.01));
      await until(() => !fs.existsSync(recent), "the aged file removed");
      await placeOrders(server, "kept", 1);
      await until(() => fs.readdirSync(outbox).filter((name) => name.endsWith(".eml")).length >= 2, "new mail");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fs.readdirSync(outbox).filter((name) => name.endsWith(".eml"))).toHaveLength(2);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("text files under DATA_DIR/messages", () => {
  it("are removed after MAIL_FILES_KEEP_DAYS like mail files, at start and as they age", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-texts-keep-"));
    const messages = path.join(dataDir, "messages");
    fs.mkdirSync(messages);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const file = (name: string, age: number) => {
      const at = path.join(messages, name);
      fs.writeFileSync(at, "To: +923001234567\n\nConfirm your order: http://127.0.0.1/c/token\n");
      fs.utimesSync(at, daysAgo(age), daysAgo(age));
      return at;
    };
    const old = file("file-2026-11-01T10-00-00-000Z-0a1b2c3d-AB12CD34.txt", 8);
    const recent = file("file-2026-11-20T10-00-00-000Z-4e5f6a7b-EF56GH78.txt", 6);
    const notOurs = file("notes.md", 30);
    const server = await startTestServer({ DATA_DIR: dataDir }, { mail: { pollMs: 50, fileSweepMs: 100 } });
    try {
      await until(() => !fs.existsSync(old), "the old text file removed at start");
      expect(fs.existsSync(recent)).toBe(true);
      expect(fs.existsSync(notOurs)).toBe(true);
      fs.utimesSync(recent, daysAgo(7.01), daysAgo(7.01));
      await until(() => !fs.existsSync(recent), "the aged text file removed");
      expect(fs.existsSync(notOurs)).toBe(true);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
