import crypto from "node:crypto";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError, RuleViolationError, UnauthorizedError } from "../shared/errors.shared";
import { paginationOf } from "../shared/list-query";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { PUBLISHED_PASSWORDS } from "./demo-passwords";
import { containsPattern } from "../shared/search";
import { validateInput } from "../shared/validation";
import { createAdminSchema, loginSchema, registerSchema, roleSchema, userListQuerySchema } from "./accounts.schemas";
import { ApiToken } from "./api-token.model";
import { pendingEmailSql } from "./email-change.model";
import { hashPassword, verifyAgainstDecoy, verifyPassword } from "./passwords";
import {
  INITIAL_CREDENTIALS_VERSION,
  endSignIns,
  hashToken,
  uniqueEmailError,
  type CurrentSignIn,
  type SignIn,
} from "./sign-ins";
import { User, publicUserOf, type PublicUser, type PublicUserRow, type Role } from "./user.model";

export type { CurrentSignIn, SignIn };

/** How long an API token lives. */
export const API_TOKEN_TTL_DAYS = 30;
export const USERS_PAGE_SIZE = 50;

/** A stored page session, the user it signs in (null: none, or no longer valid) and their cart's quantity. */
export type StoredPageSession = { data: unknown; user: PublicUser | null; cartCount: number };
/** What User.toPublic needs: never the password hash. */
const PAGE_USER_COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "street",
  "city",
  "state",
  "zipCode",
  "country",
  "role",
  "createdAt",
] as const;

export const INCORRECT_CREDENTIALS = "Incorrect email or password";

/**
 * Log-in attempts (docs/decisions/2026-11-25-login-lockout.md): per client address (one address
 * trying many accounts); per account from one client address, so that a stranger's guesses lock
 * out only the stranger's address, never the account's owner elsewhere; and per account from
 * everywhere, slower, for a guesser spread over many addresses. One address brings at most 50
 * attempts into an hour of the last (10 in each of the five quarter-hour windows an hour can
 * touch), so it takes three addresses at full speed to lock an account out.
 */
export const LOGIN_PER_IP: RateLimitRule<"address"> = {
  name: "login-ip",
  per: "address",
  limit: 30,
  windowSeconds: 15 * 60,
};
export const LOGIN_PER_ACCOUNT_AND_IP: RateLimitRule<"account and address"> = {
  name: "login-account-ip",
  per: "account and address",
  limit: 10,
  windowSeconds: 15 * 60,
};
export const LOGIN_PER_ACCOUNT: RateLimitRule<"account"> = {
  name: "login-account",
  per: "account",
  limit: 100,
  windowSeconds: 60 * 60,
};
export const SIGNUP_PER_IP: RateLimitRule<"address"> = {
  name: "signup-ip",
  per: "address",
  limit: 10,
  windowSeconds: 60 * 60,
};
const TOO_MANY_LOGINS = "Too many log-in attempts. Please wait a few minutes and try again.";
const TOO_MANY_SIGNUPS = "Too many sign-ups from this network. Please try again later.";

/** What an ADMIN_EMAIL at start found: made, already an admin, or someone else's customer account. */
export type EnsureAdminOutcome = "created" | "present" | "not-an-admin";

/**
 * The accounts (docs/product.md, "Accounts"): signing up and in, API tokens, the signed-in user of
 * a request, and the admin's list of users and their roles. Passwords changed or reset are
 * password-changes.service.ts's; the profile and its email change, profile.service.ts's.
 */
export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async findUserById(id: string): Promise<PublicUser | null> {
    if (!isUuid(id)) return null;
    const user = await User.query(this.db).modify("withPendingEmail").findById(id);
    return user ? user.toPublic() : null;
  }

  /**
   * The user a session signs in, or null when the account is gone or its password changed since
   * that sign-in. Loaded on every request, so a role change or a deletion applies at once.
   */
  async findSignedInUser(id: string, credentialsVersion: number): Promise<PublicUser | null> {
    if (!isUuid(id)) return null;
    const user = await User.query(this.db)
      .modify("withPendingEmail")
      .findById(id)
      .where("credentialsVersion", credentialsVersion);
    return user ? user.toPublic() : null;
  }

  /**
   * A page session as stored (unexpired at `now`), read in one query together with the user it
   * signs in and the quantity in that user's cart (the top bar's badge): the three used to be one
   * round trip each on every signed-in page. The user is the one findSignedInUser would find —
   * null when the account is gone or its password changed since the session signed in (sessions
   * made before credentials versions existed are at the first version) — so a role change, a
   * deletion or a password change applies on the next request as before. The cart is the cart
   * module's: its caller gives the quantity's SQL for a user id (server/flows/page-session.ts).
   */
  async readPageSession(
    sessionId: string,
    now: Date,
    cartQuantity: (userId: string) => string,
  ): Promise<StoredPageSession | null> {
    const db = this.db;
    const row = (await db("sessions as s")
      .leftJoin("users as u", function () {
        this.on("u.id", "=", "s.userId").andOn(
          "u.credentialsVersion",
          "=",
          db.raw("coalesce((s.sess->>'credentialsVersion')::int, ?)", [INITIAL_CREDENTIALS_VERSION]),
        );
      })
      .where("s.sid", sessionId)
      .where("s.expire", ">=", now)
      .first(
        "s.sess",
        ...PAGE_USER_COLUMNS.map((column) => `u.${column}`),
        db.raw(`${pendingEmailSql("u")} AS pending_email`),
        db.raw(`${cartQuantity("u.id")} AS cart_count`),
      )) as ({ sess: unknown; cartCount: string | number } & Partial<User>) | undefined;
    if (!row) return null;
    const user = row.id ? User.fromJson(row, { skipValidation: true }).toPublic() : null;
    return { data: row.sess, user, cartCount: user ? Number(row.cartCount) : 0 };
  }

  /** A new customer account. The email must not be taken (whatever its letter case). */
  async register(input: unknown, client: { ip: string }): Promise<SignIn> {
    const fields = validateInput(registerSchema, input);
    await this.rateLimiter.hit(SIGNUP_PER_IP, { address: client.ip }, TOO_MANY_SIGNUPS);
    const user = await this.createUser(fields, "customer");
    return { user, credentialsVersion: INITIAL_CREDENTIALS_VERSION };
  }

  /**
   * Checks an email and password. A failure never says which of the two was wrong, and takes as
   * long for an unknown email as for a wrong password.
   */
  async logIn(input: unknown, client: { ip: string }): Promise<SignIn> {
    const { email, password } = validateInput(loginSchema, input);
    // In this order: an attempt refused by one rule is not counted by the next, so a stranger
    // over the per-address limits adds nothing to the account's own count.
    await this.rateLimiter.hit(LOGIN_PER_IP, { address: client.ip }, TOO_MANY_LOGINS);
    await this.rateLimiter.hit(LOGIN_PER_ACCOUNT_AND_IP, { account: email, address: client.ip }, TOO_MANY_LOGINS);
    await this.rateLimiter.hit(LOGIN_PER_ACCOUNT, { account: email }, TOO_MANY_LOGINS);
    const user = await User.query(this.db).modify("withPendingEmail").where("email", email).first();
    const matches = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password);
    if (!user || !matches) throw new UnauthorizedError(INCORRECT_CREDENTIALS);
    await this.rateLimiter.reset(LOGIN_PER_ACCOUNT_AND_IP, { account: email, address: client.ip });
    await this.rateLimiter.reset(LOGIN_PER_ACCOUNT, { account: email });
    return { user: user.toPublic(), credentialsVersion: user.credentialsVersion };
  }

  /**
   * Issues a new opaque API token; only its hash is stored. It carries the credentials version
   * the password was checked at (by default the user's current one), so a log-in that checked
   * the old password while it was being changed gets a token that never works.
   */
  async issueToken(userId: string, credentialsVersion?: number): Promise<{ token: string; tokenId: string }> {
    const token = crypto.randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + API_TOKEN_TTL_DAYS * 24 * 3600 * 1000);
    const { rows } = await this.db.raw<{ rows: { id: string }[] }>(
      `INSERT INTO api_tokens (user_id, token_hash, expires_at, credentials_version)
       SELECT id, ?, ?, COALESCE(?::integer, credentials_version) FROM users WHERE id = ?
       RETURNING id`,
      [hashToken(token), expiresAt, credentialsVersion ?? null, userId],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError("User not found");
    return { token, tokenId: row.id };
  }

  /**
   * The user behind a token, or null when it is unknown, expired or revoked. One query: this
   * runs on every API request that carries a token.
   */
  async authenticateToken(token: string): Promise<{ user: PublicUser; tokenId: string } | null> {
    if (token.length > 200) return null;
    // Every API call with a token asks this (bearer-auth.ts): one indexed lookup of the token's
    // hash, reading only what the caller's public user needs (no model, no password hash).
    const { rows } = await this.db.raw<{ rows: (PublicUserRow & { tokenId: string })[] }>(
      `SELECT users.id, users.name, users.email, users.phone, users.street, users.city, users.state,
              users.zip_code AS "zipCode", users.country, users.role, users.created_at AS "createdAt",
              ${pendingEmailSql("users")} AS "pendingEmail", api_tokens.id AS "tokenId"
         FROM api_tokens JOIN users ON users.id = api_tokens.user_id
        WHERE api_tokens.token_hash = ? AND api_tokens.expires_at > ?
          AND api_tokens.credentials_version = users.credentials_version`,
      [hashToken(token), new Date()],
    );
    const row = rows[0];
    return row ? { user: publicUserOf(row), tokenId: row.tokenId } : null;
  }

  async revokeToken(tokenId: string): Promise<void> {
    await ApiToken.query(this.db).deleteById(tokenId);
  }

  async listUsers(query: unknown) {
    const { page, limit, search, role } = validateInput(userListQuerySchema, query);
    const filtered = User.query(this.db).modify((builder) => {
      if (role) builder.where("role", role);
      if (search) {
        const pattern = containsPattern(search);
        builder.where((inner) => inner.whereILike("name", pattern).orWhereILike("email", pattern));
      }
    });
    const [users, [{ count: total }]] = await Promise.all([
      filtered
        .clone()
        .modify("withPendingEmail")
        .orderBy([
          { column: "createdAt", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(limit)
        .offset((page - 1) * limit),
      filtered.clone().count("* as count") as unknown as Promise<[{ count: number }]>,
    ]);
    return { users: users.map((user) => user.toPublic()), pagination: paginationOf(page, limit, total) };
  }

  async createAdmin(input: unknown): Promise<PublicUser> {
    return this.createUser(validateInput(createAdminSchema, input), "admin");
  }

  /** Admin rules: not one's own role, and never leave the store without an admin. */
  async changeRole(actorId: string, userId: string, input: unknown): Promise<PublicUser> {
    const { role } = validateInput(roleSchema, input);
    if (!isUuid(userId)) throw new NotFoundError("User not found");
    if (userId === actorId) throw new RuleViolationError("You cannot change your own role");
    return this.db.transaction(async (trx) => {
      const admins = await this.lockAdmins(trx);
      const user = await User.query(trx).findById(userId);
      if (!user) throw new NotFoundError("User not found");
      if (user.role === "admin" && role !== "admin" && admins.length <= 1) {
        throw new RuleViolationError("The last admin cannot be demoted");
      }
      await User.query(trx)
        .findById(userId)
        .patch({ role: role as Role });
      const updated = await User.query(trx).modify("withPendingEmail").findById(userId);
      return updated!.toPublic();
    });
  }

  /** Deletes an account: its sessions and tokens end with it; its orders stay (with name and email). */
  async deleteUser(actorId: string, userId: string): Promise<void> {
    if (!isUuid(userId)) throw new NotFoundError("User not found");
    if (userId === actorId) throw new RuleViolationError("You cannot delete your own account");
    await this.db.transaction(async (trx) => {
      const admins = await this.lockAdmins(trx);
      const user = await User.query(trx).findById(userId);
      if (!user) throw new NotFoundError("User not found");
      if (user.role === "admin" && admins.length <= 1) {
        throw new RuleViolationError("The last admin cannot be deleted");
      }
      await endSignIns(trx, userId, {});
      await User.query(trx).deleteById(userId);
    });
  }

  /**
   * Makes sure the configured administrator exists (how a deployment gets its first admin).
   * An existing admin is left as it is. An existing customer account is never promoted: whoever
   * registered the operator's address first would become admin with their own password.
   */
  async ensureAdmin(admin: { email: string; password: string; name: string }): Promise<EnsureAdminOutcome> {
    const existing = await User.query(this.db).where("email", admin.email).first();
    if (existing) return existing.role === "admin" ? "present" : "not-an-admin";
    await User.query(this.db).insert({
      name: admin.name,
      email: admin.email,
      passwordHash: await hashPassword(admin.password),
      role: "admin",
    });
    return "created";
  }

  /**
   * The accounts that still sign in with a published demo password (the start refuses to face a
   * network while there is one: server/start-up/start-store.ts), each with its password. Only the accounts
   * the demo seed made can hold one (no one may choose one: accounts.schemas.ts), found by their
   * mark rather than their email, which an operator may have changed; an account whose password
   * is none of them loses the mark, so later starts check it no more
   * (docs/decisions/2026-11-29-demo-passwords.md). Admins first, then by email.
   */
  async demoLogins(): Promise<{ email: string; password: string; role: Role }[]> {
    const seeded = await User.query(this.db)
      .where("passwordFromSeed", true)
      .orderByRaw("role = 'admin' DESC, email")
      .select("id", "email", "role", "passwordHash");
    const found: { email: string; password: string; role: Role }[] = [];
    for (const user of seeded) {
      // Each password on its own thread of bcrypt's pool: a start waits for one check, not all of them.
      const matches = await Promise.all(
        PUBLISHED_PASSWORDS.map((password) => verifyPassword(password, user.passwordHash)),
      );
      const published = PUBLISHED_PASSWORDS[matches.indexOf(true)];
      if (published) found.push({ email: user.email, password: published, role: user.role });
      else await User.query(this.db).findById(user.id).patch({ passwordFromSeed: false });
    }
    return found;
  }

  private async createUser(fields: { name: string; email: string; password: string }, role: Role) {
    const passwordHash = await hashPassword(fields.password);
    try {
      const user = await User.query(this.db)
        .insert({ name: fields.name, email: fields.email, passwordHash, role })
        .returning("*");
      return user.toPublic();
    } catch (error) {
      throw uniqueEmailError(error) ?? error;
    }
  }

  /** Locks every admin row, so two admins cannot demote or delete the last two at once. */
  private lockAdmins(trx: Database) {
    return User.query(trx).select("id").where("role", "admin").forUpdate();
  }
}
