import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupLayout, readBaseBackups } from "../../server/backups/backup-archive";
import { startWalSwitchAtStop, takeBaseBackupIfDue } from "../../server/backups/backup-schedule";
import { BackupStatusService } from "../../server/backups/backup-status.service";
import { BASE_BACKUP_LOCK, takeBaseBackup } from "../../server/backups/base-backup";
import { applyRetention } from "../../server/backups/retention";
import { archiveCurrentWal } from "../../server/backups/wal-archive";
import { loadConfig, type Config } from "../../server/settings/config";
import { migrateToLatest } from "../../server/jobs/migrate";
import { postgresUserIds, startEmbeddedPostgres } from "../../server/db/embedded-postgres";
import {
  EMBEDDED_DATABASE_NAME,
  embeddedClusterDir,
  openDatabase,
  type OpenDatabase,
} from "../../server/start-up/open-database";
import { createLogger } from "../../server/logging/logger";
import { createMailTransport } from "../../server/mail/mail-transport";
import { startStoreJobs } from "../../server/jobs/job-tasks";
import { createServices, type Services } from "../../server/start-up/services";
import { childEnvironment } from "../support/child-environment";
import { insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

/**
 * Backups on the real embedded cluster: WAL archiving, base backups, point-in-time restores and
 * their refusals, through the commands as `npm run` runs them and the real server process.
 * WAL switches are forced (pg_switch_wal) instead of waiting for archive_timeout.
 */
const temporaryDirs: string[] = [];
function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `waqt-backups-${name}-`));
  temporaryDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Store = {
  config: Config;
  database: OpenDatabase;
  services: Services;
  walDir: string;
  close(): Promise<void>;
};

/** The store's database as `npm start` opens it: the embedded cluster under DATA_DIR, archiving into BACKUP_DIR. */
async function openStore(dataDir: string, backupDir: string): Promise<Store> {
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, BACKUP_DIR: backupDir, LOG_LEVEL: "silent" });
  const database = await openDatabase(config);
  await migrateToLatest(database.db);
  // A new store refuses a first-time phone's or an account's orders past its cash-on-delivery
  // rules (docs/product.md, "Cash-on-delivery rules"); this shop's orders are not about them.
  await database.db("order_rules").update({
    blockAfterReturns: null,
    firstTimeCodLimit: null,
    codLimit: null,
    openCodOrders: null,
  });
  const services = createServices({ db: database.db, config, logger: createLogger("silent") });
  return { config, database, services, walDir: backupLayout(backupDir).walDir, close: () => database.close() };
}

type Shopper = { userId: string; productId: string };

async function addShopper(store: Store): Promise<Shopper> {
  const [user] = await store.database
    .db("users")
    .insert({
      name: "Ayesha Khan",
      email: `ayesha-${Date.now()}@backups.test`,
      passwordHash: "not used",
      role: "customer",
    })
    .returning("id");
  const [product] = await store.database
    .db("products")
    .insert({
      name: "Archive Chronograph",
      description: "Kept safe",
      price: 25000,
      category: "Men",
      imageUrl: "/images/placeholder-watch.svg",
      stock: 100,
      brand: "Waqt",
    })
    .returning("id");
  return { userId: user.id, productId: product.id };
}

async function placeOrder(store: Store, shopper: Shopper): Promise<string> {
  await store.services.cart.addItem(shopper.userId, { productId: shopper.productId, quantity: 1 });
  return (await store.services.checkout.placeOrder(shopper.userId, { address }))._id;
}

async function orderIds(store: Store): Promise<string[]> {
  return (await store.database.db("orders").orderBy("id").pluck("id")) as string[];
}

/** Ends the WAL segment and waits until the archive holds it (as the store's role, as the store does). */
async function switchWal(store: Store) {
  const outcome = await archiveCurrentWal(store.database.url, store.walDir, 15_000);
  expect(outcome.archived, `segment ${outcome.segment} archived`).toBe(true);
}

/** New clusters' WAL segments (server/db/embedded-postgres.ts). */
const SEGMENT_BYTES = 1024 * 1024;

/** The segments in an archive folder by name (stored compressed, as `<name>.gz`), in order. */
function archivedSegments(archive: string): string[] {
  return fs
    .readdirSync(path.join(archive, "wal"))
    .map((file) => /^([0-9A-F]{24})(\.gz)?$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

function segmentFile(archive: string, name: string): string {
  const compressed = path.join(archive, "wal", `${name}.gz`);
  return fs.existsSync(compressed) ? compressed : path.join(archive, "wal", name);
}

type CommandResult = { code: number | null; stdout: string; stderr: string };

/** One of the backup commands, as `npm run backup…` runs it (tsx, a process of its own). */
function runCommand(args: string[], env: Record<string, string>): Promise<CommandResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/cli/backup.ts", ...args], {
    env: childEnvironment({ NODE_ENV: "test", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Every file under a folder with its size and modification time: equal snapshots, untouched folder. */
function snapshot(dir: string): string[] {
  const lines: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else {
        const stat = fs.statSync(path.join(dir, child));
        lines.push(`${child} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk("");
  return lines.sort();
}

/** Orders in a cluster folder, read by starting it without archiving (the archive is left alone). */
async function ordersInCluster(clusterDir: string): Promise<string[]> {
  const cluster = await startEmbeddedPostgres(clusterDir, () => {}, { initialise: false });
  const client = new pg.Client({ connectionString: cluster.storeUrlFor(EMBEDDED_DATABASE_NAME) });
  try {
    await client.connect();
    return (await client.query("SELECT id FROM orders ORDER BY id")).rows.map((row) => row.id as string);
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
}

describe("backups that restore", () => {
  it("restores every order after the cluster is deleted, and to a moment with --replace, keeping the cluster it replaced", async () => {
    const dataDir = tempDir("data");
    const backupDir = tempDir("archive");
    const env = { DATA_DIR: dataDir, BACKUP_DIR: backupDir };
    const store = await openStore(dataDir, backupDir);
    const shopper = await addShopper(store);
    fs.mkdirSync(path.join(dataDir, "uploads"));
    fs.writeFileSync(path.join(dataDir, "uploads", "archive-chronograph.jpg"), "a product photo");

    const first = await placeOrder(store, shopper);
    const backup = await runCommand(["take"], env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      /^Base backup base-\d{8}T\d{6}Z: \d+\.\d (kB|MB), taken at \d{4}-\d\d-\d\dT[\d:.]+Z in \d+\.\d s/,
    );
    const second = await placeOrder(store, shopper);
    // The noted moment lies strictly between the two commits (commit times have microseconds).
    await delay(30);
    const noted = new Date();
    await delay(30);
    const third = await placeOrder(store, shopper);
    await switchWal(store);
    await store.close();

    fs.rmSync(dataDir, { recursive: true, force: true });
    const latest = await runCommand(["restore"], env);
    expect(latest.stderr).toBe("");
    expect(latest.code).toBe(0);
    expect(latest.stdout).toContain("Restored base backup base-");
    expect(fs.readFileSync(path.join(dataDir, "uploads", "archive-chronograph.jpg"), "utf8")).toBe("a product photo");
    const restored = await openStore(dataDir, backupDir);
    expect(await orderIds(restored)).toEqual([first, second, third].sort());
    await restored.close();

    const pointInTime = await runCommand(["restore", "--to", noted.toISOString(), "--replace"], env);
    expect(pointInTime.stderr).toBe("");
    expect(pointInTime.code).toBe(0);
    expect(pointInTime.stdout).toMatch(/The database that was there is kept in .*before-restore-\d{8}T\d{6}Z/);
    const atNoted = await openStore(dataDir, backupDir);
    expect(await orderIds(atNoted)).toEqual([first, second].sort());
    await atNoted.close();

    const movedAside = fs.readdirSync(dataDir).filter((name) => name.startsWith("before-restore-"));
    expect(movedAside).toHaveLength(1);
    expect(await ordersInCluster(path.join(dataDir, movedAside[0]!, "postgres"))).toEqual(
      [first, second, third].sort(),
    );
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith(".restore-"))).toEqual([]);
  }, 120_000);

  it("archives every committed order when the store stops on SIGTERM, and refuses to restore while it runs", async () => {
    const dataDir = tempDir("process");
    const server = startServer(dataDir);
    const baseUrl = await server.ready;
    await waitFor(() => server.output().includes("base backup taken"), 60_000);

    const client = new TestClient(baseUrl);
    const login = await client.api("POST", "/auth/login", {
      body: { email: "customer@waqt.pk", password: "customer12345" },
    });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    // A new store refuses a first-time phone's or an account's orders past its cash-on-delivery
    // rules (docs/product.md, "Cash-on-delivery rules"); this shop's orders are not about them.
    const admin = await client.api("POST", "/auth/login", { body: { email: "admin@waqt.pk", password: "admin12345" } });
    const rulesOff = await client.api("PUT", "/settings/orders", {
      token: admin.body.data.token,
      body: { blockAfterReturns: null, firstTimeCodLimit: null, codLimit: null, openCodOrders: null },
    });
    expect(rulesOff.status).toBe(200);
    const products = await client.api("GET", "/products?limit=3");
    const placed: string[] = [];
    for (const product of products.body.data as { _id: string }[]) {
      expect((await client.api("POST", "/cart", { token, body: { productId: product._id, quantity: 1 } })).status).toBe(
        200,
      );
      const order = await client.api("POST", "/orders", { token, body: { address } });
      expect(order.status).toBe(201);
      placed.push(order.body.data._id);
    }

    const refused = await runCommand(["restore", "--replace"], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^The store is running on this DATA_DIR \(PostgreSQL process \d+\); stop it before restoring$/,
    );

    const exited = new Promise((resolve) => server.child.on("exit", resolve));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(server.output()).toContain("WAL archived before stopping");

    // Only the archive (the default BACKUP_DIR, beside DATA_DIR) goes to a new DATA_DIR.
    const elsewhere = path.join(tempDir("elsewhere"), "data");
    const backupDir = `${dataDir}-backups`;
    temporaryDirs.push(backupDir);
    const restored = await runCommand(["restore"], { DATA_DIR: elsewhere, BACKUP_DIR: backupDir });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    // The restored store serves those orders, and takes a base backup of its new timeline.
    const restoredServer = startServer(elsewhere, { BACKUP_DIR: backupDir });
    const restoredClient = new TestClient(await restoredServer.ready);
    const again = await restoredClient.api("POST", "/auth/login", {
      body: { email: "customer@waqt.pk", password: "customer12345" },
    });
    const mine = await restoredClient.api("GET", "/orders/me?limit=100", { token: again.body.data.token });
    expect(mine.status).toBe(200);
    const served = (mine.body.data as { _id: string }[]).map((order) => order._id);
    for (const id of placed) expect(served).toContain(id);
    await waitFor(() => restoredServer.output().includes("base backup taken"), 60_000);
    const stopped = new Promise((resolve) => restoredServer.child.on("exit", resolve));
    restoredServer.child.kill("SIGTERM");
    expect(await stopped).toBe(0);
  }, 120_000);

  it("with DATABASE_URL, every backup command says the database's operator owns backups", async () => {
    const env = { DATABASE_URL: "postgres://shop:secret@db.example.com/shop", DATA_DIR: tempDir("operator") };
    for (const args of [["take"], ["list"], ["verify"], ["restore"]]) {
      const result = await runCommand(args, env);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        'DATABASE_URL is set: that database\'s operator owns its backups (managed snapshots, pg_dump or pg_basebackup; see docs/operations.md, "Backups")',
      ]);
    }
  }, 60_000);
});

describe("an archive with three base backups", () => {
  const dataDir = tempDir("fixture");
  const backupDir = tempDir("fixture-archive");
  const layout = backupLayout(backupDir);
  const placed: string[] = [];

  beforeAll(async () => {
    const store = await openStore(dataDir, backupDir);
    const shopper = await addShopper(store);
    const backup = () =>
      takeBaseBackup({
        connectionString: store.database.url,
        clusterDir: embeddedClusterDir(dataDir),
        dataDir,
        backupDir,
        keepDays: 7,
        whenBusy: "wait",
      });
    for (let round = 0; round < 3; round++) {
      expect((await backup()).status).toBe("taken");
      placed.push(await placeOrder(store, shopper));
      await switchWal(store);
    }
    // Two more segments after the newest backup, so that one can go missing in the middle.
    for (let round = 0; round < 2; round++) {
      placed.push(await placeOrder(store, shopper));
      await switchWal(store);
    }
    await store.close();
  }, 120_000);

  /** A copy of the archive that a test may damage. */
  function archiveCopy(): string {
    const copy = tempDir("archive-copy");
    fs.cpSync(backupDir, copy, { recursive: true });
    return copy;
  }

  /** The segments archived after the newest backup's last one, in order. */
  function segmentsAfterNewestBackup(archive: string): string[] {
    const manifests = fs.readdirSync(path.join(archive, "base")).sort();
    const newest = JSON.parse(fs.readFileSync(path.join(archive, "base", manifests.at(-1)!, "manifest.json"), "utf8"));
    return archivedSegments(archive).filter((name) => name > newest.stopWalFile);
  }

  /** Runs a restore that must fail, and checks that DATA_DIR is exactly as it was. */
  async function refusedRestore(args: string[], archive = backupDir): Promise<string> {
    const before = snapshot(dataDir);
    const result = await runCommand(["restore", ...args], { DATA_DIR: dataDir, BACKUP_DIR: archive });
    expect(result.code, result.stdout).toBe(1);
    expect(snapshot(dataDir)).toEqual(before);
    expect(
      fs.readdirSync(dataDir).filter((name) => name.startsWith("before-restore-") || name.startsWith(".restore-")),
    ).toEqual([]);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    return lines[0]!;
  }

  it("lists the backups and the span that can be restored, and verifies the newest", async () => {
    const listed = await runCommand(["list"], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    expect(listed.code).toBe(0);
    const backups = await readBaseBackups(layout);
    expect(backups).toHaveLength(3);
    for (const { manifest } of backups) expect(listed.stdout).toContain(manifest.name);
    expect(listed.stdout).toMatch(
      new RegExp(`Restorable span: ${backups[0]!.manifest.finishedAt} to \\d{4}-[\\d-]+T[\\d:.]+Z`),
    );
    const segments = archivedSegments(backupDir).length;
    expect(listed.stdout).toMatch(
      new RegExp(`^WAL archive: ${segments} segment\\(s\\), [\\d.]+ (kB|MB) on disk \\(`, "m"),
    );

    const verified = await runCommand(["verify"], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(
      new RegExp(`Backup ${backups[2]!.manifest.name} restores: 1 users, 1 products, ${placed.length} orders`),
    );
  }, 60_000);

  it("refuses a --to that is not a time, naming the form it expects", async () => {
    expect(await refusedRestore(["--to", "last tuesday", "--replace"])).toBe(
      '--to "last tuesday" is not a time: expected an ISO 8601 time such as 2026-11-23T10:15:00Z or 2026-11-23T15:15:00+05:00',
    );
  }, 30_000);

  it("refuses a time before the oldest backup or after the last archived WAL, naming the span", async () => {
    const backups = await readBaseBackups(layout);
    const span = new RegExp(`is outside the span that can be restored: ${backups[0]!.manifest.finishedAt} to \\S+Z$`);
    const before = new Date(new Date(backups[0]!.manifest.finishedAt).getTime() - 60_000).toISOString();
    expect(await refusedRestore(["--to", before, "--replace"])).toMatch(span);
    expect(await refusedRestore(["--to", "2099-01-01T00:00:00+05:00", "--replace"])).toMatch(span);
  }, 30_000);

  it("refuses to replace a database unless told to", async () => {
    expect(await refusedRestore([])).toBe(
      `${embeddedClusterDir(dataDir)} already holds a database; add --replace to move it aside (it is kept, never deleted)`,
    );
  }, 30_000);

  it("names a missing WAL segment, to the latest point and to a time after it", async () => {
    const archive = archiveCopy();
    const [, missing] = segmentsAfterNewestBackup(archive);
    fs.rmSync(segmentFile(archive, missing!));
    expect(await refusedRestore(["--replace"], archive)).toBe(
      `WAL segment ${missing} is missing from the archive; no backup restores past it to the latest point`,
    );
    const lastArchived = fs.statSync(segmentFile(archive, segmentsAfterNewestBackup(archive).at(-1)!)).mtime;
    expect(await refusedRestore(["--to", lastArchived.toISOString(), "--replace"], archive)).toBe(
      `WAL segment ${missing} is missing from the archive; nothing was changed`,
    );
  }, 60_000);

  it("names a damaged WAL segment: cut short, or garbled inside", async () => {
    const cutShort = archiveCopy();
    const [, shortened] = segmentsAfterNewestBackup(cutShort);
    const compressedFile = segmentFile(cutShort, shortened!);
    fs.truncateSync(compressedFile, Math.floor(fs.statSync(compressedFile).size / 2));
    expect(await refusedRestore(["--replace"], cutShort)).toMatch(
      new RegExp(
        `^WAL segment ${shortened} is damaged: \\d+ bytes instead of ${SEGMENT_BYTES}; no backup restores past it to the latest point$`,
      ),
    );

    const garbled = archiveCopy();
    const [, damaged] = segmentsAfterNewestBackup(garbled);
    // The page header (40 bytes) stays; the records after it become noise (compressed again, as
    // the archive keeps it: the file itself is whole).
    const file = segmentFile(garbled, damaged!);
    const segment = zlib.gunzipSync(fs.readFileSync(file));
    segment.fill(0x5a, 40, 8192);
    fs.writeFileSync(file, zlib.gzipSync(segment));
    expect(await refusedRestore(["--replace"], garbled)).toMatch(
      new RegExp(
        `^WAL segment ${damaged} is damaged \\(PostgreSQL: invalid resource manager ID \\d+ at [0-9A-F]+/[0-9A-F]+\\); nothing was changed$`,
      ),
    );
  }, 60_000);

  it("says where the backups are missing from", async () => {
    const empty = tempDir("empty-archive");
    expect(await refusedRestore(["--replace"], empty)).toBe(
      `No base backup in ${path.join(empty, "base")}; BACKUP_DIR must be the folder that holds them`,
    );
  }, 30_000);

  it("retention keeps the newest backup and the WAL chain after the oldest one it keeps", async () => {
    const archive = archiveCopy();
    const copyLayout = backupLayout(archive);
    const [oldest, middle, newest] = (await readBaseBackups(copyLayout)).map((backup) => backup.manifest);

    // A day after the middle backup, with one day kept: the oldest goes, with the WAL only it needed.
    const dayLater = new Date(new Date(middle!.finishedAt).getTime() + 24 * 60 * 60 * 1000);
    const plan = await applyRetention(copyLayout, 1, dayLater);
    expect(plan.deletedBackups).toEqual([oldest!.name]);
    const wal = archivedSegments(archive);
    expect(wal.filter((name) => name < middle!.startWalFile)).toEqual([]);
    expect(wal).toContain(middle!.startWalFile);

    // A month on, nothing is young enough: the newest backup stays, and restores every order.
    const monthLater = new Date(dayLater.getTime() + 30 * 24 * 60 * 60 * 1000);
    expect((await applyRetention(copyLayout, 7, monthLater)).keptBackups).toEqual([newest!.name]);
    const verified = await runCommand(["verify"], { DATA_DIR: dataDir, BACKUP_DIR: archive });
    expect(verified.stderr).toBe("");
    expect(verified.stdout).toContain(`${placed.length} orders`);
  }, 60_000);

  it("restores to a time after the last commit as the latest point", async () => {
    const archive = archiveCopy();
    const lastArchived = fs.statSync(segmentFile(archive, segmentsAfterNewestBackup(archive).at(-1)!)).mtime;
    // No archived commit is later than this moment: PostgreSQL reaches the end of the WAL first.
    const result = await runCommand(["restore", "--to", lastArchived.toISOString(), "--replace"], {
      DATA_DIR: dataDir,
      BACKUP_DIR: archive,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Replaying WAL up to \S+\nReplaying the rest of the archived WAL\n/);
    expect(await ordersInCluster(embeddedClusterDir(dataDir))).toEqual([...placed].sort());
  }, 60_000);
});

describe("the running store's backups", () => {
  it("takes a base backup when none is a day old, never two at once, and the dashboard warns when archiving fails or the newest is 25 h old", async () => {
    const dataDir = tempDir("schedule");
    const backupDir = path.join(dataDir, "backups");
    const store = await openStore(dataDir, backupDir);
    const logger = createLogger("silent");
    // The job queue's base-backup task (tests/integration/job-queue-tasks.test.ts runs it through the queue).
    const backupIfDue = (now: Date) =>
      takeBaseBackupIfDue(
        {
          connectionString: store.database.url,
          clusterDir: embeddedClusterDir(dataDir),
          dataDir,
          backupDir,
          keepDays: 7,
          logger,
          now: () => now,
        },
        new AbortController().signal,
      );
    const backupCount = async () => (await readBaseBackups(backupLayout(backupDir))).length;

    await backupIfDue(new Date());
    expect(await backupCount()).toBe(1);
    await backupIfDue(new Date());
    expect(await backupCount()).toBe(1);
    const dayLater = new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
    await backupIfDue(dayLater);
    expect(await backupCount()).toBe(2);

    // Never two at once: while one holds the lock, the schedule gives up and the command waits.
    const holder = new pg.Client({ connectionString: store.database.url });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock($1)", [BASE_BACKUP_LOCK]);
    const options = {
      connectionString: store.database.url,
      clusterDir: embeddedClusterDir(dataDir),
      dataDir,
      backupDir,
      keepDays: 7,
    };
    expect(await takeBaseBackup({ ...options, whenBusy: "skip" })).toEqual({ status: "busy" });
    let waiting = false;
    const waited = takeBaseBackup({ ...options, whenBusy: "wait", onWait: () => (waiting = true) });
    await waitFor(() => waiting, 10_000);
    await delay(200);
    expect(await backupCount()).toBe(2);
    await holder.end();
    expect((await waited).status).toBe("taken");
    expect(await backupCount()).toBe(3);

    const newest = (await readBaseBackups(backupLayout(backupDir))).at(-1)!.manifest;
    const status = await new BackupStatusService(store.database.db, store.config).status();
    expect(status).toMatchObject({
      kind: "embedded",
      lastBaseBackup: { name: newest.name },
      archivingFailure: null,
      baseBackupOverdue: false,
    });
    expect(status.kind === "embedded" && status.lastArchivedWal?.name).toMatch(/^[0-9A-F]{24}/);
    const later = new BackupStatusService(
      store.database.db,
      store.config,
      () => new Date(Date.now() + 25 * 60 * 60 * 1000),
    );
    expect(await later.status()).toMatchObject({ baseBackupOverdue: true });

    // PostgreSQL's user loses the right to write into the archive: archiving fails, and says so.
    // First everything so far reaches the archive (the newest backup's .backup file is archived
    // after the backup has returned), so the failure is the probe's segment.
    await switchWal(store);
    const { walDir } = backupLayout(backupDir);
    const owner = postgresUserIds();
    if (owner) fs.chownSync(walDir, 0, 0);
    fs.chmodSync(walDir, 0o555);
    try {
      await store.database.db.raw("CREATE TABLE archive_probe (id int)");
      const segment = await archiveCurrentWal(store.database.url, walDir, 3_000);
      expect(segment.archived).toBe(false);
      // The archiver tries a failed segment again after a second or so; its failure shows at once.
      const status = () => new BackupStatusService(store.database.db, store.config).status();
      await waitFor(async () => {
        const current = await status();
        return current.kind === "embedded" && current.archivingFailure !== null;
      }, 10_000);
      const failing = await status();
      expect(failing).toMatchObject({ kind: "embedded", archivingFailure: { wal: segment.segment } });
    } finally {
      fs.chmodSync(walDir, 0o755);
      if (owner) fs.chownSync(walDir, owner.uid, owner.gid);
    }
    await store.close();
  }, 120_000);

  it("at stop archives what was written, and says so at info level when nothing was (never a warning)", async () => {
    const dataDir = tempDir("stop");
    const backupDir = tempDir("stop-archive");
    const store = await openStore(dataDir, backupDir);
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const schedule = () => startWalSwitchAtStop({ connectionString: store.database.url, backupDir, logger });
    try {
      let running = schedule();
      await addShopper(store);
      await running.stop();
      // A start and a stop with nothing written in between: nothing to switch, nothing lost.
      running = schedule();
      await running.stop();
    } finally {
      await store.close();
    }
    const stops = logged.filter((line) => line.msg.includes("before stopping"));
    expect(stops.map((line) => [line.level, line.msg])).toEqual([
      [30, "WAL archived before stopping"],
      [30, "nothing written since the last archived WAL: nothing to switch before stopping"],
    ]);
    expect(logged.filter((line) => line.level >= 40)).toEqual([]);
  }, 60_000);

  it("never copies a password reset mail into a base backup; other mails go in", async () => {
    const dataDir = tempDir("mail");
    const backupDir = tempDir("mail-archive");
    const store = await openStore(dataDir, backupDir);
    try {
      const shopper = await addShopper(store);
      const { email } = await store.database.db("users").where("id", shopper.userId).first("email");
      await store.services.passwordChanges.requestPasswordReset({ email }, { ip: "127.0.0.1" });
      await placeOrder(store, shopper);
      // Without SMTP_URL each mail becomes an .eml file under DATA_DIR/outbox, as the store writes it.
      const transport = createMailTransport(store.config.mail, {
        publicUrl: store.config.publicUrl,
        replyTo: store.config.store.email,
      });
      const jobs = await startStoreJobs({
        connectionString: store.database.url,
        db: store.database.db,
        services: store.services,
        logger: createLogger("silent"),
        mail: { transport, maxAttempts: 3, retrySeconds: 1 },
        backups: null,
      });
      await jobs.runDueJobs();
      await jobs.stop();
      transport.close();
      const outbox = path.join(dataDir, "outbox");
      const subjectOf = (file: string) => /^Subject: (.*)$/m.exec(fs.readFileSync(file, "utf8"))?.[1];
      const written = fs.readdirSync(outbox).filter((name) => name.endsWith(".eml"));
      const resetMails = written.filter((name) => subjectOf(path.join(outbox, name)) === "Reset your Waqt password");
      expect(resetMails).toHaveLength(1);
      expect(written.length).toBeGreaterThanOrEqual(2);

      const outcome = await takeBaseBackup({
        connectionString: store.database.url,
        clusterDir: embeddedClusterDir(dataDir),
        dataDir,
        backupDir,
        keepDays: 7,
        whenBusy: "wait",
      });
      expect(outcome.status).toBe("taken");
      const copied = fs.readdirSync(path.join(outcome.status === "taken" ? outcome.dir : "", "files", "outbox"));
      expect(copied.sort()).toEqual(written.filter((name) => !resetMails.includes(name)).sort());
    } finally {
      await store.close();
    }
  }, 60_000);

  it("shows the backups on the admin dashboard, or says who owns them with DATABASE_URL", async () => {
    const embedded = await startTestServer({
      DATABASE_URL: "",
      DATA_DIR: tempDir("dashboard"),
      BACKUP_DIR: tempDir("dashboard-archive"),
    });
    const operator = await startTestServer({}, { shareDatabaseOf: embedded });
    try {
      await insertUser(embedded, {
        name: "Backup Admin",
        email: "admin@backups.test",
        password: "adminpass1",
        role: "admin",
      });
      const page = async (server: typeof embedded) => {
        const admin = new TestClient(server.baseUrl);
        expect(
          (await admin.postForm("/login", { email: "admin@backups.test", password: "adminpass1", redirectTo: "" }))
            .status,
        ).toBe(303);
        const response = await admin.get("/admin");
        expect(response.status).toBe(200);
        return response.text();
      };
      const embeddedPage = await page(embedded);
      expect(embeddedPage).toContain("Last base backup");
      expect(embeddedPage).toContain("Last archived WAL");
      expect(embeddedPage).toContain("No base backup is younger than 25 hours.");
      expect(await page(operator)).toContain("The database at DATABASE_URL is backed up by its operator");
    } finally {
      await operator.close();
      await embedded.close();
    }
  }, 60_000);
});

function startServer(dataDir: string, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, ["build/node/main.js"], {
    env: childEnvironment({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
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

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await delay(100);
  }
}
