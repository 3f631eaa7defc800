import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The passwords of one embedded cluster: its superuser's (setup only: creating the store's role
 * and databases, upgrades) and the store role's (everything the store does). Made at random when
 * the cluster is made and kept in a file inside the cluster folder, readable only by its owner, so
 * they travel with the cluster wherever it goes: into every base backup, a restore, a cluster moved
 * aside, a verification's temporary copy (docs/decisions/2026-11-25-embedded-database-access.md).
 */
export type ClusterCredentials = {
  superuser: { role: string; password: string };
  store: { role: string; password: string };
  /**
   * Superuser passwords the cluster may still have: written before a change of password, so that a
   * start cut short between the file and the change can still sign in and finish it.
   */
  previousSuperuserPasswords?: string[];
};

export const CREDENTIALS_FILE = "waqt-credentials.json";
export const SUPERUSER_ROLE = "postgres";
/** The role the store connects as: it owns the store's database and nothing else (server/db/store-role.ts). */
export const STORE_ROLE = "waqt";

export function credentialsFile(clusterDir: string): string {
  return path.join(clusterDir, CREDENTIALS_FILE);
}

export function freshCredentials(): ClusterCredentials {
  return {
    superuser: { role: SUPERUSER_ROLE, password: randomPassword() },
    store: { role: STORE_ROLE, password: randomPassword() },
  };
}

/** 32 random bytes: plain ASCII, so SCRAM's SASLprep leaves it as it is. */
function randomPassword(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function readCredentials(clusterDir: string): ClusterCredentials | null {
  let text: string;
  try {
    text = fs.readFileSync(credentialsFile(clusterDir), "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<ClusterCredentials>;
  if (!parsed.superuser?.password || !parsed.store?.password || !parsed.superuser.role || !parsed.store.role) {
    throw new Error(`${credentialsFile(clusterDir)} does not hold the cluster's passwords`);
  }
  return parsed as ClusterCredentials;
}

/**
 * Written whole or not at all (a temporary name, fsync, rename), mode 0600. Under root the file
 * goes to PostgreSQL's user with the rest of the cluster folder, which is that user's alone (0700).
 */
export function writeCredentials(
  clusterDir: string,
  credentials: ClusterCredentials,
  owner: { uid: number; gid: number } | null,
) {
  const file = credentialsFile(clusterDir);
  const temporary = `${file}.tmp`;
  fs.rmSync(temporary, { force: true });
  const handle = fs.openSync(temporary, "wx", 0o600);
  try {
    fs.writeFileSync(handle, JSON.stringify(credentials, null, 2) + "\n");
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  if (owner) fs.chownSync(temporary, owner.uid, owner.gid);
  fs.renameSync(temporary, file);
  const dir = fs.openSync(clusterDir, "r");
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

/**
 * The SCRAM-SHA-256 verifier of a password (RFC 5802, RFC 7677), as PostgreSQL stores it: a role's
 * password is set with this, so the password itself never travels in a statement that PostgreSQL
 * could log.
 */
export function scramVerifier(password: string, salt = crypto.randomBytes(16), iterations = 4096): string {
  const salted = crypto.pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const hmac = (key: Buffer, text: string) => crypto.createHmac("sha256", key).update(text).digest();
  const storedKey = crypto.createHash("sha256").update(hmac(salted, "Client Key")).digest();
  const serverKey = hmac(salted, "Server Key");
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
