import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { backupLayout } from "../../server/backups/backup-archive";
import { takeBaseBackup } from "../../server/backups/base-backup";
import { recoverCluster } from "../../server/backups/recovery";
import { verifyNewestBackup } from "../../server/backups/restore";
import { assessArchive } from "../../server/backups/backup-archive";
import { archiveCurrentWal } from "../../server/backups/wal-archive";
import { loadConfig } from "../../server/settings/config";
import { connectDatabase } from "../../server/db/database";
import { migrateToLatest } from "../../server/jobs/migrate";
import { makeTraversable, postgresBinaries, postgresUserIds } from "../../server/db/embedded-postgres";
import { EMBEDDED_DATABASE_NAME, embeddedClusterDir, openDatabase } from "../../server/start-up/open-database";
import { childEnvironment } from "../support/child-environment";

/**
 * Who can reach the embedded PostgreSQL (docs/decisions/2026-11-25-embedded-database-access.md).
 * Until 2026-11-25 every cluster had one superuser password, written in the repository, and listened
 * on 127.0.0.1: any local account could sign in as superuser and run programs as PostgreSQL's user.
 */
const temporaryDirs: string[] = [];
function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `waqt-access-${name}-`));
  temporaryDirs.push(dir, `${dir}-backups`);
  return dir;
}
afterAll(() => {
  for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const OLD_FIXED_PASSWORD = "waqt-embedded";
const asRoot = os.userInfo().uid === 0;

/** The store's database as `npm start` opens it, under a DATA_DIR of its own. */
async function openStore(dataDir: string) {
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const database = await openDatabase(config);
  await migrateToLatest(database.db);
  return { config, database };
}

/**
 * Every way the running cluster listens, read from its postmaster.pid as any local program could:
 * the TCP address (4th and 6th lines) and the Unix socket's folder (5th).
 */
function listeningAddresses(clusterDir: string): { host: string; port: number }[] {
  const lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  const port = Number(lines[3]);
  const addresses: { host: string; port: number }[] = [];
  const socketDir = lines[4]?.trim();
  const tcp = lines[5]?.trim();
  if (socketDir) addresses.push({ host: socketDir, port });
  if (tcp && tcp !== "*") addresses.push({ host: tcp, port });
  if (tcp === "*") addresses.push({ host: "127.0.0.1", port });
  return addresses;
}

/** What a sign-in as `user` answers at each address: "signed in", or PostgreSQL's (or the system's) refusal. */
async function signIn(addresses: { host: string; port: number }[], user: string, password: string) {
  const answers: string[] = [];
  for (const address of addresses) {
    const client = new pg.Client({ ...address, user, password, database: "postgres", connectionTimeoutMillis: 5_000 });
    client.on("error", () => {});
    answers.push(
      await client.connect().then(
        () => "signed in",
        (error: Error & { code?: string }) => error.code ?? error.message,
      ),
    );
    await client.end().catch(() => {});
  }
  return answers;
}

describe("the embedded database", () => {
  it("listens on no TCP port and refuses the old fixed superuser password", async () => {
    const dataDir = tempDir("fixed-password");
    const { database } = await openStore(dataDir);
    try {
      const addresses = listeningAddresses(embeddedClusterDir(dataDir));
      expect(addresses.map((address) => address.host)).toEqual([embeddedClusterDir(dataDir)]);
      // 28P01: password authentication failed.
      expect(await signIn(addresses, "postgres", OLD_FIXED_PASSWORD)).toEqual(["28P01"]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it.skipIf(!asRoot)(
    "cannot be reached by another local account, even one that knows the passwords",
    async () => {
      const dataDir = tempDir("other-account");
      const { database } = await openStore(dataDir);
      try {
        const clusterDir = embeddedClusterDir(dataDir);
        const addresses = listeningAddresses(clusterDir);
        const known = database.embedded?.credentials;
        const attempts = [
          { user: "postgres", password: OLD_FIXED_PASSWORD },
          ...(known
            ? [
                { user: "postgres", password: known.superuser.password },
                { user: known.store.role, password: known.store.password },
              ]
            : []),
        ];
        // The same sign-ins, as the local account "nobody".
        const script = `
        const { default: pg } = await import(${JSON.stringify(path.resolve("node_modules/pg/lib/index.js"))});
        const answers = [];
        for (const address of ${JSON.stringify(addresses)}) for (const attempt of ${JSON.stringify(attempts)}) {
          const client = new pg.Client({ ...address, ...attempt, database: "postgres", connectionTimeoutMillis: 5000 });
          client.on("error", () => {});
          answers.push(await client.connect().then(() => "signed in", (error) => error.code ?? error.message));
          await client.end().catch(() => {});
        }
        console.log(JSON.stringify(answers));`;
        const run = spawnSync(
          "runuser",
          ["-u", "nobody", "--", process.execPath, "--input-type=module", "-e", script],
          { env: childEnvironment(), encoding: "utf8", cwd: "/" },
        );
        expect(run.stderr).toBe("");
        const answers = JSON.parse(run.stdout) as string[];
        expect(answers).toHaveLength(addresses.length * attempts.length);
        // The socket's folder is PostgreSQL's user's alone: the connection is refused before any password.
        expect(answers.every((answer) => answer === "EACCES")).toBe(true);
      } finally {
        await database.close();
      }
    },
    60_000,
  );

  it("serves the store as a role that is no superuser and may not run programs or read the server's files", async () => {
    const dataDir = tempDir("store-role");
    const { database } = await openStore(dataDir);
    try {
      const { rows } = await database.db.raw(
        `SELECT current_user AS role, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
                pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER') AS server_programs,
                pg_has_role(current_user, 'pg_read_server_files', 'MEMBER') AS read_files,
                pg_has_role(current_user, 'pg_write_server_files', 'MEMBER') AS write_files,
                (SELECT datdba::regrole::text FROM pg_database WHERE datname = current_database()) AS database_owner
           FROM pg_roles r WHERE r.rolname = current_user`,
      );
      expect(rows[0]).toEqual({
        role: "waqt",
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        rolreplication: false,
        rolbypassrls: false,
        server_programs: false,
        read_files: false,
        write_files: false,
        database_owner: "waqt",
      });
      await database.db.raw("CREATE TABLE program_output (line text)");
      await expect(database.db.raw("COPY program_output FROM PROGRAM 'id'")).rejects.toThrow(
        /permission denied to COPY to or from an external program/,
      );
      await expect(database.db.raw("SELECT pg_read_file('postgresql.conf')")).rejects.toThrow(/permission denied/);
      // What the store does need: the backup functions.
      const switched = await archiveCurrentWal(database.url, backupLayout(`${dataDir}-backups`).walDir, 15_000);
      expect(switched.archived).toBe(true);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("gives a cluster made with the old fixed password random ones, hands the store's database to the store's role, and moves its archive beside DATA_DIR", async () => {
    const dataDir = tempDir("upgrade");
    const clusterDir = embeddedClusterDir(dataDir);
    const customerId = await makeClusterTheOldWay(clusterDir);
    // Its archive, in the old default place (DATA_DIR/backups), with one history file in it.
    fs.mkdirSync(path.join(dataDir, "backups", "wal"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "backups", "wal", "00000002.history"), "1\t0/5000A28\tbefore\n");

    for (const start of ["first", "second"]) {
      const { database } = await openStore(dataDir);
      try {
        const addresses = listeningAddresses(clusterDir);
        expect(await signIn(addresses, "postgres", OLD_FIXED_PASSWORD), `${start} start`).toEqual(["28P01"]);
        // The store, as its own role, finds its data and owns everything it made as the superuser.
        expect(await database.db("users").where("id", customerId).first("email")).toEqual({
          email: "old@upgrade.test",
        });
        const { rows: foreign } = await database.db.raw(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relowner <> 'waqt'::regrole AND c.relkind IN ('r', 'S', 'v', 'm')
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
           UNION ALL
           SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND p.proowner <> 'waqt'::regrole
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
        );
        expect(foreign).toEqual([]);
        // Migrations and the store's writes run as the store's role.
        await database
          .db("users")
          .where("id", customerId)
          .update({ name: `Upgraded (${start})` });
        await database.db.raw(`CREATE TABLE IF NOT EXISTS after_upgrade (id int)`);
      } finally {
        await database.close();
      }
    }
    // The archive moved beside DATA_DIR, BACKUP_DIR's new default, and went on there.
    expect(fs.existsSync(path.join(dataDir, "backups"))).toBe(false);
    expect(fs.readdirSync(path.join(`${dataDir}-backups`, "wal"))).toContain("00000002.history");
    const credentials = JSON.parse(fs.readFileSync(path.join(clusterDir, "waqt-credentials.json"), "utf8"));
    expect(credentials.superuser.password).not.toBe(OLD_FIXED_PASSWORD);
    expect(credentials.previousSuperuserPasswords).toBeUndefined();
    expect(fs.statSync(path.join(clusterDir, "waqt-credentials.json")).mode & 0o777).toBe(0o600);
  }, 120_000);

  it("gives a verification's copy passwords of its own, and removes it afterwards", async () => {
    const dataDir = tempDir("verify");
    const { config, database } = await openStore(dataDir);
    const store = database.embedded!.credentials;
    try {
      const taken = await takeBaseBackup({
        connectionString: database.url,
        clusterDir: embeddedClusterDir(dataDir),
        dataDir,
        backupDir: config.backupDir,
        keepDays: 7,
        whenBusy: "wait",
      });
      expect(taken.status).toBe("taken");
      await archiveCurrentWal(database.url, backupLayout(config.backupDir).walDir, 15_000);
    } finally {
      await database.close();
    }

    // The recovery a verification runs, kept open here to look at it.
    const layout = backupLayout(config.backupDir);
    const assessment = await assessArchive(layout);
    const copyDir = path.join(tempDir("verify-copy"), "postgres");
    const copy = await recoverCluster({
      backup: assessment.backups.at(-1)!,
      assessment,
      walDir: layout.walDir,
      clusterDir: copyDir,
      target: null,
      archiveNewTimeline: false,
      freshPasswords: true,
    });
    try {
      expect(copy.database.credentials.superuser.password).not.toBe(store.superuser.password);
      expect(copy.database.credentials.store.password).not.toBe(store.store.password);
      const addresses = listeningAddresses(copyDir);
      expect(await signIn(addresses, "postgres", store.superuser.password)).toEqual(["28P01"]);
      expect(await signIn(addresses, store.store.role, store.store.password)).toEqual(["28P01"]);
      expect(await signIn(addresses, "postgres", OLD_FIXED_PASSWORD)).toEqual(["28P01"]);
    } finally {
      await copy.database.stop();
    }

    const lines: string[] = [];
    const verified = await verifyNewestBackup(config.backupDir, (line) => lines.push(line));
    expect(verified.counts.users).toBe(0);
    const workDir = /into (\S+)$/.exec(lines[0]!)?.[1];
    expect(workDir).toMatch(/waqt-verify-/);
    expect(fs.existsSync(workDir!)).toBe(false);
  }, 120_000);
});

/**
 * A cluster as the code before 2026-11-25 made it (through the embedded-postgres package): initdb
 * with the fixed password, cleartext password authentication, listening on 127.0.0.1; the store's
 * database made and migrated by the superuser, so the superuser owns every object. One customer in it.
 */
async function makeClusterTheOldWay(clusterDir: string): Promise<string> {
  const { initdb, postgres } = postgresBinaries();
  const owner = postgresUserIds();
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  makeTraversable(clusterDir);
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (owner) fs.chownSync(clusterDir, owner.uid, owner.gid);
  const passwordFile = path.join(path.dirname(clusterDir), "old-password");
  fs.writeFileSync(passwordFile, `${OLD_FIXED_PASSWORD}\n`);
  if (owner) fs.chownSync(passwordFile, owner.uid, owner.gid);
  const init = spawnSync(
    initdb,
    [
      `--pgdata=${clusterDir}`,
      "--auth=password",
      "--username=postgres",
      `--pwfile=${passwordFile}`,
      "--lc-messages=C",
      "--encoding=UTF8",
    ],
    { ...ids, env: childEnvironment(), cwd: "/", encoding: "utf8" },
  );
  fs.rmSync(passwordFile);
  expect(init.status, init.stderr).toBe(0);

  const port = await freePort();
  const server = spawn(
    postgres,
    ["-D", clusterDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    { ...ids, env: childEnvironment(), cwd: "/", stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let log = "";
    server.stderr!.on("data", (chunk) => {
      log += chunk;
      if (log.includes("database system is ready to accept connections")) resolve();
    });
    server.on("exit", () => reject(new Error(log)));
  });
  const exited = new Promise((resolve) => server.on("exit", resolve));
  try {
    const url = (database: string) => `postgres://postgres:${OLD_FIXED_PASSWORD}@127.0.0.1:${port}/${database}`;
    const admin = new pg.Client({ connectionString: url("postgres") });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE_NAME}`);
    await admin.end();
    const db = connectDatabase(url(EMBEDDED_DATABASE_NAME));
    try {
      await migrateToLatest(db);
      const [user] = await db("users")
        .insert({ name: "Old Customer", email: "old@upgrade.test", passwordHash: "not used", role: "customer" })
        .returning("id");
      return user.id as string;
    } finally {
      await db.destroy();
    }
  } finally {
    server.kill("SIGINT");
    await exited;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
