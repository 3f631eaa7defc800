import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, isLoopbackHost, loadConfig } from "./config";

const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "waqt-config-"));

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: tempDataDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("configuration", () => {
  it("has working defaults for the self-contained store", () => {
    const config = loadConfig({ DATA_DIR: tempDataDir() });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.rateLimits).toBe(true);
    expect(config.seedDemoData).toBe(true);
    expect(config.store.name).toBe("Waqt");
  });

  it("keeps backups beside DATA_DIR, never inside it, for a week unless told otherwise", () => {
    const dataDir = tempDataDir();
    const defaults = loadConfig({ DATA_DIR: dataDir });
    // Deleting DATA_DIR (the lost disk the backups are for) leaves them.
    expect(defaults.backupDir).toBe(`${dataDir}-backups`);
    expect(path.relative(dataDir, defaults.backupDir).startsWith("..")).toBe(true);
    const secret = "a-session-secret-that-is-long-enough-0123";
    expect(loadConfig({ DATA_DIR: "/srv/waqt/data/", SESSION_SECRET: secret }).backupDir).toBe(
      "/srv/waqt/data-backups",
    );
    expect(defaults.backupKeepDays).toBe(7);

    const elsewhere = path.join(os.tmpdir(), "waqt-config-backups");
    const chosen = loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: elsewhere, BACKUP_KEEP_DAYS: "30" });
    expect(chosen.backupDir).toBe(elsewhere);
    expect(chosen.backupKeepDays).toBe(30);
  });

  it("refuses backup settings that cannot work, naming the setting", () => {
    const dataDir = tempDataDir();
    const keepDays = "Invalid configuration: BACKUP_KEEP_DAYS must be a whole number of days (1-3650)";
    for (const bad of ["abc", "0", "-3", "1.5", "9999"]) expect(errorOf({ BACKUP_KEEP_DAYS: bad })).toBe(keepDays);
    for (const bad of [dataDir, path.dirname(dataDir), path.join(dataDir, "postgres", "backups")]) {
      expect(errorOf({ DATA_DIR: dataDir, BACKUP_DIR: bad })).toMatch(
        /^Invalid configuration: BACKUP_DIR must be a folder of its own/,
      );
    }
  });

  it("names the setting in one line when a value is bad", () => {
    expect(errorOf({ PORT: "abc" })).toBe("Invalid configuration: PORT must be a port number (1-65535)");
    expect(errorOf({ PORT: "70000" })).toMatch(/^Invalid configuration: PORT /);
    expect(errorOf({ DATABASE_URL: "mysql://x" })).toMatch(/^Invalid configuration: DATABASE_URL /);
    expect(errorOf({ PUBLIC_URL: "waqt.pk" })).toMatch(/^Invalid configuration: PUBLIC_URL /);
    expect(errorOf({ CORS_ORIGINS: "not a url" })).toMatch(/^Invalid configuration: CORS_ORIGINS /);
    expect(errorOf({ RATE_LIMITS: "maybe" })).toMatch(/^Invalid configuration: RATE_LIMITS must be on or off/);
    expect(errorOf({ ADMIN_EMAIL: "boss@waqt.pk" })).toMatch(/ADMIN_PASSWORD is required/);
    expect(errorOf({ ADMIN_EMAIL: "boss@waqt.pk", ADMIN_PASSWORD: "admin12345" })).toBe(
      "Invalid configuration: ADMIN_PASSWORD is a published demo password: choose another",
    );
  });

  it("sends mail as files under DATA_DIR/outbox by default, from SITE_NAME <STORE_EMAIL>, and reads the mail settings", () => {
    const dataDir = tempDataDir();
    const defaults = loadConfig({ DATA_DIR: dataDir });
    expect(defaults.mail).toEqual({
      smtpUrl: null,
      from: "Waqt <support@waqt.pk>",
      outboxDir: path.join(dataDir, "outbox"),
      maxAttempts: 8,
      retrySeconds: 60,
      filesKeepDays: 7,
    });
    expect(loadConfig({ DATA_DIR: dataDir, SITE_NAME: "Waqt, Lahore", STORE_EMAIL: "hi@waqt.pk" }).mail.from).toBe(
      '"Waqt, Lahore" <hi@waqt.pk>',
    );
    const set = loadConfig({
      DATA_DIR: dataDir,
      SMTP_URL: "smtps://user:secret@mail.example:465",
      MAIL_FROM: "Orders <orders@waqt.pk>",
      MAIL_MAX_ATTEMPTS: "3",
      MAIL_RETRY_SECONDS: "0.5",
      MAIL_FILES_KEEP_DAYS: "2",
    });
    expect(set.mail).toMatchObject({
      smtpUrl: "smtps://user:secret@mail.example:465",
      from: "Orders <orders@waqt.pk>",
      maxAttempts: 3,
      retrySeconds: 0.5,
      filesKeepDays: 2,
    });
    expect(errorOf({ SMTP_URL: "http://mail.example" })).toContain("SMTP_URL must be an smtp:// or smtps:// URL");
    expect(errorOf({ MAIL_FROM: "Orders" })).toContain("MAIL_FROM must be an address");
    expect(errorOf({ MAIL_MAX_ATTEMPTS: "0" })).toContain("MAIL_MAX_ATTEMPTS");
    expect(errorOf({ MAIL_RETRY_SECONDS: "-1" })).toContain("MAIL_RETRY_SECONDS");
    expect(errorOf({ MAIL_FILES_KEEP_DAYS: "0" })).toBe(
      "Invalid configuration: MAIL_FILES_KEEP_DAYS must be a whole number of days (1-3650)",
    );
  });

  it("refuses TRUST_PROXY=true, which would believe any client's X-Forwarded-For, and accepts hops or addresses", () => {
    expect(errorOf({ TRUST_PROXY: "true" })).toMatch(
      /^Invalid configuration: TRUST_PROXY must be a hop count .* not true/,
    );
    expect(errorOf({ TRUST_PROXY: "10.0.0.1, evil" })).toMatch(/^Invalid configuration: TRUST_PROXY /);
    expect(errorOf({ TRUST_PROXY: "10.0.0.0/99" })).toMatch(/^Invalid configuration: TRUST_PROXY /);
    const config = (value: string) => loadConfig({ DATA_DIR: tempDataDir(), TRUST_PROXY: value }).trustProxy;
    expect(config("false")).toBeNull();
    expect(config("0")).toBeNull();
    // What Express is given: one hop (nginx) is believed about the client, the next is not.
    const oneHop = config("1")!;
    expect(oneHop.setting).toBe("1");
    expect([oneHop.trusts("203.0.113.7", 0), oneHop.trusts("203.0.113.7", 1)]).toEqual([true, false]);
    const listed = config("loopback, 10.0.0.0/8, ::1")!;
    expect(listed.setting).toBe("loopback, 10.0.0.0/8, ::1");
    for (const address of ["127.0.0.1", "10.20.30.40", "::1", "::ffff:127.0.0.1"])
      expect(listed.trusts(address, 0), address).toBe(true);
    for (const address of ["203.0.113.7", "11.0.0.1", "2001:db8::1"])
      expect(listed.trusts(address, 0), address).toBe(false);
  });

  it("refuses TRUST_PROXY settings that trust every address in another spelling, a huge share of them, or many hops", () => {
    const refusal = (value: string) => errorOf({ TRUST_PROXY: value });
    // Every IPv4 client, written as two halves, or through IPv4-mapped IPv6; every IPv6 client.
    for (const everyone of ["0.0.0.0/1,128.0.0.0/1", "0.0.0.0/1, 128.0.0.0/1, loopback", "::ffff:0:0/96"])
      expect(refusal(everyone), everyone).toMatch(
        /^Invalid configuration: TRUST_PROXY trusts every IPv4 address on the internet, .*as with true/,
      );
    for (const everyone of ["::/1,8000::/1", "2000::/3"])
      expect(refusal(everyone), everyone).toMatch(/^Invalid configuration: TRUST_PROXY trusts every IPv6 address /);
    // A /8 of the internet's addresses is as much as the threshold (1/256), a /5 much more.
    expect(refusal("16.0.0.0/8")).toMatch(/^Invalid configuration: TRUST_PROXY trusts 0\.39% of the IPv4 addresses /);
    expect(refusal("8.0.0.0/5")).toMatch(/^Invalid configuration: TRUST_PROXY trusts 2\.8% of the IPv4 addresses /);
    expect(refusal("2400::/10")).toMatch(/^Invalid configuration: TRUST_PROXY trusts 0\.78% of the IPv6 addresses /);
    // proxy-addr refuses a /0 itself, which Express only tried when the app was made, after migrations.
    for (const bad of ["::/0", "0.0.0.0/0", "TRUE", "yes", "10.0.0.1,", "127.0.0.1/33"])
      expect(refusal(bad), bad).toMatch(/^Invalid configuration: TRUST_PROXY must be a hop count/);
    for (const hops of ["4", "10", "99"])
      expect(refusal(hops), hops).toBe(
        `Invalid configuration: TRUST_PROXY must be a hop count of at most 3 (the proxies in front of the store), not ${hops}: a count larger than the real chain believes what clients write into X-Forwarded-For`,
      );

    // What a real deployment writes still loads: hops up to 3, the machine's and private
    // networks, a CDN's published ranges, a /9.
    const accepted = (value: string) => loadConfig({ DATA_DIR: tempDataDir(), TRUST_PROXY: value }).trustProxy;
    for (const fine of [
      "1",
      "2",
      "3",
      "loopback",
      "loopback, linklocal, uniquelocal",
      "173.245.48.0/20, 103.21.244.0/22, 104.16.0.0/13, 2400:cb00::/32, 2a06:98c0::/29",
      "16.0.0.0/9",
    ])
      expect(accepted(fine)?.setting, fine).toBe(fine);
  });

  it("knows which hosts only this machine can reach", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "shop.example.pk", "128.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("refuses to run in production on a real database without a session secret", () => {
    expect(errorOf({ NODE_ENV: "production", DATABASE_URL: "postgres://u:p@127.0.0.1/db" })).toMatch(
      /^Invalid configuration: SESSION_SECRET is required in production/,
    );
  });

  it("makes a session secret once and keeps it under DATA_DIR", () => {
    const dataDir = tempDataDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    const second = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(second).toBe(first);
    expect(fs.readFileSync(path.join(dataDir, "session-secret"), "utf8").trim()).toBe(first);
  });

  it("reads lists, proxies, the brand and the first admin", () => {
    const config = loadConfig({
      DATA_DIR: tempDataDir(),
      CORS_ORIGINS: "https://app.example.com, https://m.example.com",
      TRUST_PROXY: "1",
      RATE_LIMITS: "off",
      PUBLIC_URL: "https://waqt.pk/",
      SITE_NAME: "Ghari",
      ADMIN_EMAIL: "boss@waqt.pk",
      ADMIN_PASSWORD: "a-long-password",
    });
    expect(config.corsOrigins).toEqual(["https://app.example.com", "https://m.example.com"]);
    expect(config.trustProxy?.setting).toBe("1");
    expect(config.rateLimits).toBe(false);
    expect(config.publicUrl).toBe("https://waqt.pk");
    expect(config.store.name).toBe("Ghari");
    expect(config.initialAdmin).toEqual({ email: "boss@waqt.pk", password: "a-long-password", name: "Administrator" });
  });
});
