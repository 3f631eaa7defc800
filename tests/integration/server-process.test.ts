import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { seedDemoData } from "../../seeds/demo";
import { childEnvironment } from "../support/child-environment";
import { createTestDatabase } from "../support/test-database";

/**
 * The real `npm start` process: built server, embedded PostgreSQL under DATA_DIR, demo data on
 * first start, reused on the second, and nothing left running after SIGTERM or SIGINT.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-process-"));
const otherDirs: string[] = [];
afterAll(() => {
  for (const dir of [dataDir, `${dataDir}-backups`, ...otherDirs]) fs.rmSync(dir, { recursive: true, force: true });
});

/** `detached`: the server leads a process group of its own, as a shell's foreground job does. */
function startServer(env: Record<string, string> = {}, options: { detached?: boolean } = {}) {
  const child = spawn(process.execPath, ["build/node/main.js"], {
    env: childEnvironment({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on("data", () => {
      // "… is running at <PUBLIC_URL>: open it in a browser (listening on 127.0.0.1:<port>)"
      const match = output.match(/is running at \S+: open it in a browser \(listening on 127\.0\.0\.1:(\d+)\)/);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.on("exit", () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, ready, output: () => output };
}

function exitOf(child: ChildProcess) {
  return new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
}

/**
 * A start that should be refused: its exit code and what it wrote to stderr. One that starts
 * instead is stopped after 30 seconds (and exits 0), so a failing test leaves no server behind.
 */
async function refusedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ["build/node/main.js"], {
    env: childEnvironment({ NODE_ENV: "production", PORT: "0", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGTERM"), 30_000);
  const code = await exitOf(child);
  clearTimeout(timer);
  return { code, stderr: stderr.trim() };
}

function postmasterRunning(): boolean {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  if (!fs.existsSync(pidFile)) return false;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the server process", () => {
  it("starts with demo data, stops cleanly on SIGTERM, and reuses its data on the next start", async () => {
    const first = startServer();
    const url = await first.ready;
    const home = await fetch(url + "/");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("New arrivals");
    expect(first.output()).toContain("demo data seeded (first start)");
    // Not a terminal: JSON lines, for files and log shippers.
    const records = first
      .output()
      .trim()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const said = records.map((record) => record.msg);
    // What a person needs to begin: where to open it, how to sign in, where the mail goes.
    expect(said).toContainEqual(
      `Waqt is running at ${url.replace("127.0.0.1", "localhost")}: open it in a browser (listening on 127.0.0.1:${new URL(url).port})`,
    );
    expect(said).toContainEqual(
      "demo accounts, with their published passwords: admin@waqt.pk / admin12345 (admin), customer@waqt.pk / customer12345 (customer)",
    );
    // Without SMTP_URL the store's mail becomes .eml files, and the log says where.
    expect(first.output()).toContain(
      `mail goes to .eml files under ${path.join(dataDir, "outbox")} (SMTP_URL is not set)`,
    );

    const exited = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(postmasterRunning()).toBe(false);

    const second = startServer();
    const secondUrl = await second.ready;
    expect((await fetch(secondUrl + "/")).status).toBe(200);
    expect(second.output()).not.toContain("demo data seeded");
    // Every start says how to sign in while the demo passwords are unchanged.
    expect(second.output()).toContain("demo accounts, with their published passwords: admin@waqt.pk / admin12345");
    const secondExit = exitOf(second.child);
    second.child.kill("SIGINT");
    expect(await secondExit).toBe(0);
    expect(postmasterRunning()).toBe(false);
  }, 120_000);

  it("lets an in-flight request finish before stopping", async () => {
    const server = startServer();
    const url = new URL(await server.ready);
    // A request whose body is still arriving when the stop signal comes: it must be answered,
    // not cut off.
    const body = JSON.stringify({ name: "x".repeat(200) });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: "/api/v1/slow-upload",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on("error", reject);
      request.write(body.slice(0, 50));
      setTimeout(() => {
        server.child.kill("SIGTERM");
        setTimeout(() => request.end(body.slice(50)), 500);
      }, 200);
    });
    const exited = exitOf(server.child);
    const response = await answered;
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toEqual({ success: false, message: "Not found - /api/v1/slow-upload" });
    expect(await exited).toBe(0);
    expect(postmasterRunning()).toBe(false);
  }, 120_000);

  // Found by `npm run test:load` (scenario C): clients that keep their connections alive and busy
  // held the stopping server open until the grace period (10 s) cut whatever they had in flight.
  it("stops promptly under kept-alive load: connections close after their answer, none is cut", async () => {
    const server = startServer();
    const url = new URL(await server.ready);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    type Outcome = { status?: number; error?: string; answerBegan: boolean };
    const get = () =>
      new Promise<Outcome>((resolve) => {
        let answerBegan = false;
        const request = http.get(
          { agent, host: url.hostname, port: url.port, path: "/api/v1/products?limit=1" },
          (response) => {
            answerBegan = true;
            response.resume();
            response.on("end", () => resolve({ status: response.statusCode, answerBegan }));
            response.on("error", (error) => resolve({ error: String(error), answerBegan }));
          },
        );
        request.on("error", (error) =>
          resolve({ error: (error as { code?: string }).code ?? String(error), answerBegan }),
        );
      });
    const outcomes: Outcome[] = [];
    const clients = Array.from({ length: 4 }, async () => {
      for (;;) {
        const outcome = await get();
        outcomes.push(outcome);
        if (outcome.error === "ECONNREFUSED") return;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const exited = exitOf(server.child);
    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    await Promise.all(clients);
    agent.destroy();
    expect(outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(10);
    // Every answer that began was finished; the rest were refused or reset before any answer.
    expect(outcomes.filter((outcome) => outcome.error && outcome.answerBegan)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status !== undefined && outcome.status !== 200)).toEqual([]);
  }, 120_000);

  it("keeps the exit code a process sets after using the embedded database (so a failing npm test fails)", async () => {
    const clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-exit-code-"));
    try {
      const probe = spawn(
        process.execPath,
        ["--import", "tsx", "tests/support/exit-code-probe.ts", path.join(clusterDir, "postgres")],
        { env: childEnvironment(), stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      probe.stdout!.on("data", (chunk) => (output += chunk));
      probe.stderr!.on("data", (chunk) => (output += chunk));
      expect(await exitOf(probe), output).toBe(3);
    } finally {
      fs.rmSync(clusterDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses to face a network while a demo account keeps its published password", async () => {
    const exposed = spawn(process.execPath, ["build/node/main.js"], {
      env: childEnvironment({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", HOST: "0.0.0.0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    exposed.stderr!.on("data", (chunk) => (stderr += chunk));
    expect(await exitOf(exposed)).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(
      /^Refusing to listen on HOST=0\.0\.0\.0: the demo account admin@waqt\.pk still has its published password/,
    );
    expect(postmasterRunning()).toBe(false);
  }, 60_000);

  // The demo accounts are found as the seed made them, not by their address: an operator who gave
  // the demo admin their own email and kept its password still has a published password facing
  // the network (docs/decisions/2026-11-29-demo-passwords.md).
  it("refuses to face a network while any account keeps a demo password, whatever its email now", async () => {
    const database = await createTestDatabase();
    try {
      await seedDemoData(database.db);
      await database.db("users").where({ email: "admin@waqt.pk" }).update({ email: "owner@shop.example.pk" });
      // The demo customer's password was changed: it no longer counts.
      await database
        .db("users")
        .where({ email: "customer@waqt.pk" })
        .update({ passwordHash: await hashPassword("a-password-of-our-own", 4) });
      const env = {
        DATABASE_URL: database.url,
        SESSION_SECRET: "a-session-secret-that-is-long-enough-0123456789",
        DATA_DIR: dataDir,
      };
      // An address of no machine here (TEST-NET-1): the start must stop before it tries to listen.
      const refused = await refusedStart({ ...env, HOST: "192.0.2.10" });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr.split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(
        /^Refusing to listen on HOST=192\.0\.2\.10: the demo account owner@shop\.example\.pk still has its published password\. /,
      );
      // On this machine alone it starts, and says which account signs in with which password.
      const local = startServer({ ...env, HOST: "127.0.0.1" });
      await local.ready;
      expect(local.output()).toContain(
        "demo accounts, with their published passwords: owner@shop.example.pk / admin12345 (admin)",
      );
      const exited = exitOf(local.child);
      local.child.kill("SIGTERM");
      expect(await exited).toBe(0);
      // The demo customer, shown to hold another password, is not checked again at later starts.
      const marks = await database.db("users").orderBy("email").select("email", "passwordFromSeed");
      expect(marks).toEqual([
        { email: "customer@waqt.pk", passwordFromSeed: false },
        { email: "owner@shop.example.pk", passwordFromSeed: true },
      ]);
    } finally {
      await database.drop();
    }
  }, 120_000);

  // nginx on the same machine (docs/operations.md, "Deploying"): HOST stays 127.0.0.1 and the store faces the
  // internet all the same. Its signs are PUBLIC_URL and TRUST_PROXY.
  it("refuses to start behind a proxy on this machine while a demo account keeps its published password", async () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [
        { PUBLIC_URL: "https://shop.example.pk" },
        /^Refusing to start with PUBLIC_URL=https:\/\/shop\.example\.pk: the demo account admin@waqt\.pk still has its published password\. Change it \(My Profile, Change Password\) or delete the account, from a start with HOST=127\.0\.0\.1 and neither PUBLIC_URL nor TRUST_PROXY\.$/,
      ],
      [{ TRUST_PROXY: "loopback" }, /^Refusing to start with TRUST_PROXY=loopback: the demo account admin@waqt\.pk /],
      [
        { TRUST_PROXY: "1", PUBLIC_URL: "http://192.168.1.20:8080" },
        /^Refusing to start with PUBLIC_URL=http:\/\/192\.168\.1\.20:8080 and TRUST_PROXY=1: the demo account /,
      ],
    ];
    for (const [env, line] of refusals) {
      const { code, stderr } = await refusedStart({ DATA_DIR: dataDir, HOST: "127.0.0.1", ...env });
      expect(code, JSON.stringify(env)).toBe(1);
      expect(stderr.split("\n")).toHaveLength(1);
      expect(stderr).toMatch(line);
      expect(postmasterRunning()).toBe(false);
    }
    // A loopback PUBLIC_URL is this machine alone, as before.
    const local = startServer({ HOST: "127.0.0.1", PUBLIC_URL: "http://127.0.0.1:8080" });
    await local.ready;
    // The address to open is PUBLIC_URL's (the proxy's), not the port the store listens on.
    expect(local.output()).toMatch(
      /is running at http:\/\/127\.0\.0\.1:8080: open it in a browser \(listening on 127\.0\.0\.1:\d+\)/,
    );
    const exited = exitOf(local.child);
    local.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 120_000);

  it("refuses a TRUST_PROXY that proxy-addr cannot read, or that trusts everyone, before the database is touched", async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-trust-proxy-"));
    try {
      for (const [setting, line] of [
        [
          "::/0",
          "Invalid configuration: TRUST_PROXY must be a hop count (e.g. 1) or the proxies' addresses, ranges or names (loopback, linklocal, uniquelocal): invalid range on address: ::/0",
        ],
        ["0.0.0.0/1,128.0.0.0/1", /^Invalid configuration: TRUST_PROXY trusts every IPv4 address on the internet/],
      ] as const) {
        const { code, stderr } = await refusedStart({ DATA_DIR: fresh, TRUST_PROXY: setting });
        expect(code, setting).toBe(1);
        if (typeof line === "string") expect(stderr).toBe(line);
        else expect(stderr).toMatch(line);
        // No cluster was made, so no migration ran.
        expect(fs.existsSync(path.join(fresh, "postgres")), setting).toBe(false);
      }
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }, 60_000);

  it("never makes an existing customer account an admin through ADMIN_EMAIL", async () => {
    const takeover = spawn(process.execPath, ["build/node/main.js"], {
      env: childEnvironment({
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        PORT: "0",
        ADMIN_EMAIL: "customer@waqt.pk",
        ADMIN_PASSWORD: "operator-password-1",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    takeover.stderr!.on("data", (chunk) => (stderr += chunk));
    expect(await exitOf(takeover)).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^ADMIN_EMAIL customer@waqt\.pk belongs to an existing customer account/);

    // The account is as it was: still a customer, still with its own password.
    const server = startServer({ ADMIN_EMAIL: "admin@waqt.pk", ADMIN_PASSWORD: "not-the-admins-password" });
    try {
      const url = await server.ready;
      const logIn = async (email: string, password: string) =>
        fetch(`${url}/api/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
        }).then((response) => response.json());
      expect((await logIn("customer@waqt.pk", "customer12345")).data.user.role).toBe("customer");
      expect((await logIn("customer@waqt.pk", "operator-password-1")).success).toBe(false);
      // An existing admin named by ADMIN_EMAIL is left as it is, its password too.
      expect((await logIn("admin@waqt.pk", "admin12345")).data.user.role).toBe("admin");
    } finally {
      server.child.kill("SIGTERM");
      await exitOf(server.child);
    }
  }, 90_000);

  it("refuses bad configuration with one clear line and exit code 1", async () => {
    const bad = spawn(process.execPath, ["build/node/main.js"], {
      env: childEnvironment({ PORT: "abc", DATA_DIR: dataDir }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    bad.stderr!.on("data", (chunk) => (stderr += chunk));
    expect(await exitOf(bad)).toBe(1);
    expect(stderr.trim()).toBe("Invalid configuration: PORT must be a port number (1-65535)");

    const unreachable = spawn(process.execPath, ["build/node/main.js"], {
      env: childEnvironment({ DATABASE_URL: "postgres://nobody:x@127.0.0.1:9/none", DATA_DIR: dataDir, PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let unreachableErr = "";
    unreachable.stderr!.on("data", (chunk) => (unreachableErr += chunk));
    expect(await exitOf(unreachable)).toBe(1);
    expect(unreachableErr.trim().split("\n")).toHaveLength(1);
    expect(unreachableErr).toMatch(/^Invalid configuration: DATABASE_URL does not answer/);
  }, 60_000);

  it("stops cleanly on a terminal's Ctrl-C: the last WAL is archived while PostgreSQL still runs, with no warning", async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-ctrl-c-"));
    otherDirs.push(ownDataDir, `${ownDataDir}-backups`);
    const server = startServer({ DATA_DIR: ownDataDir, DATABASE_URL: "" }, { detached: true });
    const url = await server.ready;
    for (let waited = 0; !server.output().includes("base backup taken"); waited += 100) {
      if (waited > 60_000) throw new Error(`no base backup:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Something to archive: a sign-in writes its token.
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "customer@waqt.pk", password: "customer12345" }),
    });
    expect(login.status).toBe(200);
    // BACKUP_DIR's default is beside DATA_DIR, here on the same disk: one line says so at start.
    expect(server.output()).toContain(
      `BACKUP_DIR (${ownDataDir}-backups) is on the same disk as DATA_DIR (${ownDataDir}): losing that disk loses the backups too`,
    );

    // Ctrl-C in a terminal: SIGINT to every process of the foreground group at once.
    const exited = exitOf(server.child);
    process.kill(-server.child.pid!, "SIGINT");
    expect(await exited).toBe(0);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map((line) => line.msg)).toContain("WAL archived before stopping");
    const warnings = lines.filter((line) => line.level >= 40).map((line) => line.msg);
    expect(warnings.filter((msg) => !msg.startsWith("BACKUP_DIR ("))).toEqual([]);
    expect(fs.existsSync(path.join(ownDataDir, "postgres", "postmaster.pid"))).toBe(false);
  }, 120_000);

  it("refuses to start a new, empty database over the backups of an earlier one (DATA_DIR deleted), naming the restore", async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-deleted-"));
    otherDirs.push(ownDataDir, `${ownDataDir}-backups`);
    const first = startServer({ DATA_DIR: ownDataDir, DATABASE_URL: "" });
    await first.ready;
    for (let waited = 0; !first.output().includes("base backup taken"); waited += 100) {
      if (waited > 60_000) throw new Error(`no base backup:\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const stopped = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await stopped).toBe(0);

    // The disk under DATA_DIR is lost; the backups beside it are not.
    fs.rmSync(ownDataDir, { recursive: true, force: true });
    const second = spawn(process.execPath, ["build/node/main.js"], {
      env: childEnvironment({ NODE_ENV: "production", DATA_DIR: ownDataDir, PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    second.stderr!.on("data", (chunk) => (stderr += chunk));
    expect(await exitOf(second)).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `BACKUP_DIR (${ownDataDir}-backups) holds the backups of an earlier database, and DATA_DIR has none: bring it back with npm run restore, or move ${ownDataDir}-backups away to start a new, empty store`,
    ]);
    expect(fs.existsSync(path.join(ownDataDir, "postgres", "PG_VERSION"))).toBe(false);
  }, 120_000);

  it("warns at start when DATABASE_URL signs in as a superuser, and not for a role that only owns its database", async () => {
    const database = await createTestDatabase();
    try {
      const asSuperuser = new URL(inject("testDatabaseAdminUrl"));
      asSuperuser.pathname = `/${database.name}`;
      const warning = "DATABASE_URL signs in as a superuser";
      for (const [url, warned] of [
        [asSuperuser.href, true],
        [database.url, false],
      ] as const) {
        const server = startServer({
          DATABASE_URL: url,
          SESSION_SECRET: "a-session-secret-that-is-long-enough-0123456789",
        });
        await server.ready;
        const exited = exitOf(server.child);
        server.child.kill("SIGTERM");
        expect(await exited).toBe(0);
        expect(server.output().includes(warning), server.output()).toBe(warned);
      }
    } finally {
      await database.drop();
    }
  }, 90_000);
});
