import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import * as yup from "yup";
import { confirmationConfig, confirmationSettingsSchema, type ConfirmationConfig } from "./confirmation-settings";
import { courierSettingsSchema, couriersConfig, type CouriersConfig } from "./courier-settings";
import { PUBLISHED_PASSWORDS } from "../modules/accounts/demo-passwords";
import { PHOTO_QUEUE_MAX_DEFAULT } from "../modules/catalog/photo-lane";
import { COURIER_PROVIDER_IDS } from "../providers/couriers/courier-providers.shared";
import { MESSAGE_CHANNEL_IDS } from "../providers/message-channels/message-channel";
import { PAYMENT_METHOD_IDS } from "../providers/payment-methods/payment-methods.shared";
import { storeDetails, type StoreDetails } from "./store-details";
import { ConfigError } from "./setting-rules";
import { compileTrustProxy, TrustProxyRefused, type TrustProxy } from "./trust-proxy";

export { ConfigError };
export type { ConfirmationConfig, SmsConfig, WhatsAppConfig } from "./confirmation-settings";
export type { CouriersConfig, LeopardsConfig, PostexConfig } from "./courier-settings";

/**
 * The whole configuration, read and validated once at start. Every setting comes from the
 * environment; a bad value stops the process with one line that names the setting.
 */
export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** Empty: the server starts its own embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** Base backups and archived WAL of the embedded cluster (server/backups/): DATA_DIR-backups unless set; unused with DATABASE_URL. */
  backupDir: string;
  /** Base backups younger than this are kept (the newest always is), with the WAL they need. */
  backupKeepDays: number;
  sessionSecret: string;
  /** Absolute site address without a trailing slash, for canonical links and absolute image URLs. */
  publicUrl: string;
  corsOrigins: string[];
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * TRUST_PROXY: a hop count or the proxies' addresses, compiled and judged at load (server/settings/trust-proxy.ts);
   * null when unset. Never `true` nor anything trusting as much, which would believe any client's
   * X-Forwarded-For and defeat every per-address limit.
   */
  trustProxy: TrustProxy | null;
  rateLimits: boolean;
  /** Keep rendered catalogue pages for guests in memory (production only; see server/http/page-cache.ts). */
  pageCache: boolean;
  /** Uploads that may wait for the photo lane behind the one at work; one more is refused with 503 (server/modules/catalog/photo-lane.ts). */
  photoQueueMax: number;
  initialAdmin: { email: string; password: string; name: string } | null;
  /** Seed the demo catalogue and accounts when the database is empty (the embedded default does). */
  seedDemoData: boolean;
  store: StoreDetails;
  /** How mail leaves the store (server/mail/; docs/decisions/2026-11-23-outbox.md). */
  mail: MailConfig;
  /** The providers chosen of each kind, by their ids, in order (server/providers/; docs/recipes.md). */
  providers: ProviderSettings;
  /** The customers' confirmation of their orders by WhatsApp or SMS (docs/product.md, "Confirming an order"). */
  confirmation: ConfirmationConfig;
  /** The couriers booked and followed through their merchant APIs (docs/product.md, "Couriers through their APIs"). */
  couriers: CouriersConfig;
  /** Benchmark only: count database queries per request (server/http/query-counter.ts). Off by default. */
  benchQueryCount: boolean;
};

export type MailConfig = {
  /** smtp:// or smtps:// with credentials; null: each mail becomes an .eml file under outboxDir. */
  smtpUrl: string | null;
  /** The From of every mail: MAIL_FROM, or `SITE_NAME <STORE_EMAIL>`. */
  from: string;
  /** Where mails are written without SMTP_URL: DATA_DIR/outbox. */
  outboxDir: string;
  /** Attempts before a message is marked failed for good. */
  maxAttempts: number;
  /** The wait after the first failed attempt; it doubles after each, up to an hour. */
  retrySeconds: number;
  /** .eml files under outboxDir older than this are removed (they hold reset links and customers' details). */
  filesKeepDays: number;
};

export type ProviderSettings = {
  /** PAYMENT_METHODS: offered at checkout; the first is an order's when it names none. */
  paymentMethods: string[];
  /** MESSAGE_CHANNELS: the store's messages go by every one that carries them. */
  messageChannels: string[];
  /** COURIER_PROVIDERS: how parcels reach couriers. */
  courierProviders: string[];
};

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A comma-separated list of a provider kind's ids (server/providers/), at least one. */
function providerList(known: readonly string[], fallback: string) {
  const message = `must be a comma-separated list of ${known.join(", ")} (at least one)`;
  return yup
    .string()
    .default(fallback)
    .test("providers", message, (value) => {
      const ids = splitList(value ?? "");
      return ids.length > 0 && ids.every((id) => known.includes(id));
    });
}

/** The store's own settings, then each outside service's part: one schema, validated once. */
const envSchema = yup
  .object({
    NODE_ENV: yup
      .string()
      .oneOf(["development", "production", "test"], "must be development, production or test")
      .default("development"),
    PORT: yup
      .number()
      .typeError("must be a port number (1-65535)")
      .integer("must be a port number (1-65535)")
      .min(0, "must be a port number (1-65535)")
      .max(65535, "must be a port number (1-65535)")
      .default(3000),
    HOST: yup.string().trim().default("127.0.0.1"),
    DATABASE_URL: yup
      .string()
      .trim()
      .test("postgres-url", "must be a postgres:// or postgresql:// URL", (value) => {
        if (!value) return true;
        try {
          return ["postgres:", "postgresql:"].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }),
    DATA_DIR: yup.string().trim(),
    BACKUP_DIR: yup.string().trim(),
    BACKUP_KEEP_DAYS: yup
      .number()
      .typeError("must be a whole number of days (1-3650)")
      .integer("must be a whole number of days (1-3650)")
      .min(1, "must be a whole number of days (1-3650)")
      .max(3650, "must be a whole number of days (1-3650)")
      .default(7),
    SESSION_SECRET: yup.string().min(32, "must be at least 32 characters long"),
    PUBLIC_URL: yup
      .string()
      .trim()
      .test("absolute-url", "must be an absolute http(s) URL such as https://waqt.pk", (value) => {
        if (!value) return true;
        try {
          return ["http:", "https:"].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }),
    CORS_ORIGINS: yup
      .string()
      .default("")
      .test("origins", "must be a comma-separated list of origins such as https://app.example.com", (value) =>
        splitList(value ?? "").every(isOrigin),
      ),
    LOG_LEVEL: yup.string().oneOf(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`),
    TRUST_PROXY: yup.string().trim().default("false"),
    RATE_LIMITS: yup.string().oneOf(["on", "off"], "must be on or off").default("on"),
    PAGE_CACHE: yup.string().oneOf(["on", "off"], "must be on or off").default("on"),
    PHOTO_QUEUE_MAX: yup
      .number()
      .typeError("must be a whole number (0-100)")
      .integer("must be a whole number (0-100)")
      .min(0, "must be a whole number (0-100)")
      .max(100, "must be a whole number (0-100)")
      .default(PHOTO_QUEUE_MAX_DEFAULT),
    ADMIN_EMAIL: yup.string().trim().email("must be an email address"),
    ADMIN_PASSWORD: yup.string().min(8, "must be at least 8 characters long"),
    ADMIN_NAME: yup.string().trim().min(2, "must be at least 2 characters long"),
    SEED_DEMO_DATA: yup.string().oneOf(["on", "off", ""], "must be on or off"),
    BENCH_QUERY_COUNT: yup.string().oneOf(["on", "off"], "must be on or off").default("off"),
    SMTP_URL: yup
      .string()
      .trim()
      .test("smtp-url", "must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example:587", (value) => {
        if (!value) return true;
        try {
          const url = new URL(value);
          return ["smtp:", "smtps:"].includes(url.protocol) && Boolean(url.hostname);
        } catch {
          return false;
        }
      }),
    MAIL_FROM: yup
      .string()
      .trim()
      .max(300, "must be at most 300 characters")
      .matches(/^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
        message: "must be an address, or a name and an address: Waqt <support@waqt.pk>",
        excludeEmptyString: true,
      }),
    MAIL_MAX_ATTEMPTS: yup
      .number()
      .typeError("must be a whole number (1-100)")
      .integer("must be a whole number (1-100)")
      .min(1, "must be a whole number (1-100)")
      .max(100, "must be a whole number (1-100)")
      .default(8),
    MAIL_FILES_KEEP_DAYS: yup
      .number()
      .typeError("must be a whole number of days (1-3650)")
      .integer("must be a whole number of days (1-3650)")
      .min(1, "must be a whole number of days (1-3650)")
      .max(3650, "must be a whole number of days (1-3650)")
      .default(7),
    PAYMENT_METHODS: providerList(PAYMENT_METHOD_IDS, "cash-on-delivery,bank-transfer"),
    MESSAGE_CHANNELS: providerList(MESSAGE_CHANNEL_IDS, "email"),
    COURIER_PROVIDERS: providerList(COURIER_PROVIDER_IDS, "manual"),
    MAIL_RETRY_SECONDS: yup
      .number()
      .typeError("must be a number of seconds (0.01-3600)")
      .min(0.01, "must be a number of seconds (0.01-3600)")
      .max(3600, "must be a number of seconds (0.01-3600)")
      .default(60),
  })
  .concat(confirmationSettingsSchema)
  .concat(courierSettingsSchema);

/**
 * The name of every setting the schema reads: the settings table of docs/operations.md lists
 * each (tests/integration/docs-truth.test.ts). store-details.ts reads its own by name.
 */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.fields);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let raw: yup.InferType<typeof envSchema>;
  try {
    // Empty strings count as unset, as they do in most shells' `VAR= cmd`.
    const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
    raw = envSchema.validateSync(present, { abortEarly: true, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      throw new ConfigError(error.path ?? "setting", error.errors[0] ?? "is invalid");
    }
    throw error;
  }

  const nodeEnv = raw.NODE_ENV as Config["env"];
  const dataDir = path.resolve(raw.DATA_DIR ?? "data");
  // Beside DATA_DIR, never inside it: the disk the backups are for must not take them along
  // (./data → ./data-backups; server/backups/backup-dir.ts moves an archive from the old default).
  const backupDir = path.resolve(raw.BACKUP_DIR ?? `${dataDir}-backups`);
  // The backups copy DATA_DIR (all but the cluster and themselves), so they cannot hold DATA_DIR,
  // and a folder inside the cluster would be copied into every backup it holds.
  if (isInside(dataDir, backupDir) || isInside(backupDir, path.join(dataDir, "postgres"))) {
    throw new ConfigError(
      "BACKUP_DIR",
      "must be a folder of its own: not DATA_DIR, not a folder holding it, not inside DATA_DIR/postgres",
    );
  }
  const databaseUrl = raw.DATABASE_URL || null;
  const port = raw.PORT;

  // Judged here, before anything opens the database: a bad or overly trusting setting never
  // reaches migrations, nor Express (which would throw on a bad range only when the app is made).
  let trustProxy: TrustProxy | null;
  try {
    trustProxy = compileTrustProxy(raw.TRUST_PROXY);
  } catch (error) {
    if (error instanceof TrustProxyRefused) throw new ConfigError("TRUST_PROXY", error.message);
    throw error;
  }

  if (raw.ADMIN_EMAIL && !raw.ADMIN_PASSWORD) {
    throw new ConfigError("ADMIN_PASSWORD", "is required when ADMIN_EMAIL is set");
  }
  if (raw.ADMIN_PASSWORD && Buffer.byteLength(raw.ADMIN_PASSWORD) > 72) {
    throw new ConfigError("ADMIN_PASSWORD", "must be at most 72 bytes long");
  }
  // The administrator it makes is no demo account, so the start's check would not look at it.
  if (raw.ADMIN_PASSWORD && PUBLISHED_PASSWORDS.includes(raw.ADMIN_PASSWORD)) {
    throw new ConfigError("ADMIN_PASSWORD", "is a published demo password: choose another");
  }

  let sessionSecret = raw.SESSION_SECRET;
  if (!sessionSecret) {
    if (nodeEnv === "production" && databaseUrl) {
      throw new ConfigError("SESSION_SECRET", "is required in production (at least 32 random characters)");
    }
    // The self-contained default keeps a secret of its own, so sessions survive a restart.
    sessionSecret = readOrCreateSecret(path.join(dataDir, "session-secret"));
  }

  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  const store = storeDetails(env);

  return {
    env: nodeEnv,
    port,
    host: raw.HOST,
    databaseUrl,
    dataDir,
    backupDir,
    backupKeepDays: raw.BACKUP_KEEP_DAYS,
    sessionSecret,
    publicUrl,
    corsOrigins: splitList(raw.CORS_ORIGINS),
    logLevel: (raw.LOG_LEVEL as Config["logLevel"] | undefined) ?? (nodeEnv === "test" ? "silent" : "info"),
    trustProxy,
    rateLimits: raw.RATE_LIMITS === "on",
    pageCache: raw.PAGE_CACHE === "on" && nodeEnv === "production",
    photoQueueMax: raw.PHOTO_QUEUE_MAX,
    initialAdmin: raw.ADMIN_EMAIL
      ? { email: raw.ADMIN_EMAIL, password: raw.ADMIN_PASSWORD!, name: raw.ADMIN_NAME ?? "Administrator" }
      : null,
    seedDemoData: raw.SEED_DEMO_DATA ? raw.SEED_DEMO_DATA === "on" : !databaseUrl,
    store,
    mail: {
      smtpUrl: raw.SMTP_URL || null,
      from: raw.MAIL_FROM || defaultMailFrom(store),
      outboxDir: path.join(dataDir, "outbox"),
      maxAttempts: raw.MAIL_MAX_ATTEMPTS,
      retrySeconds: raw.MAIL_RETRY_SECONDS,
      filesKeepDays: raw.MAIL_FILES_KEEP_DAYS,
    },
    providers: {
      paymentMethods: [...new Set(splitList(raw.PAYMENT_METHODS))],
      messageChannels: [...new Set(splitList(raw.MESSAGE_CHANNELS))],
      courierProviders: [...new Set(splitList(raw.COURIER_PROVIDERS))],
    },
    confirmation: confirmationConfig(raw, dataDir),
    couriers: couriersConfig(raw),
    benchQueryCount: raw.BENCH_QUERY_COUNT === "on",
  };
}

/** `SITE_NAME <STORE_EMAIL>`, the name quoted when it holds characters an address header reads otherwise. */
function defaultMailFrom(store: StoreDetails): string {
  const name = /^[\p{L}\p{N} .'-]+$/u.test(store.name) ? store.name : `"${store.name.replace(/["\\]/g, "")}"`;
  return `${name} <${store.email}>`;
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return ["http:", "https:"].includes(url.protocol) && url.origin === value.replace(/\/$/, "");
  } catch {
    return false;
  }
}

function isInside(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Every sign in the configuration that other machines reach the store: a HOST other than
 * loopback; a PUBLIC_URL that is not a loopback address (a proxy on this machine, such as nginx,
 * brings the world to a store listening on 127.0.0.1); TRUST_PROXY set (there is a proxy). Empty:
 * this machine alone.
 */
export function networkExposure(config: Pick<Config, "host" | "publicUrl" | "trustProxy">): string[] {
  const signs: string[] = [];
  if (!isLoopbackHost(config.host)) signs.push(`HOST=${config.host}`);
  if (!isLoopbackHost(new URL(config.publicUrl).hostname)) signs.push(`PUBLIC_URL=${config.publicUrl}`);
  if (config.trustProxy) signs.push(`TRUST_PROXY=${config.trustProxy.setting}`);
  return signs;
}

/** Loopback addresses: only this machine can reach a server listening there. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return net.isIPv4(bare) && bare.startsWith("127.");
}

function readOrCreateSecret(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(48).toString("base64url");
    fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
    return secret;
  }
}
