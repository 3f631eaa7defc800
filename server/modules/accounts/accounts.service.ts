import crypto from "node:crypto";
import type { Knex } from "knex";
import type { QueryBuilder } from "objection";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  RuleViolationError,
  UnauthorizedError,
} from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import {
  changePasswordSchema,
  confirmEmailChangeSchema,
  createAdminSchema,
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
  roleSchema,
  sendResetLinkSchema,
  userListQuerySchema,
} from "./accounts.schemas";
import { countryOrDefault } from "../shared/address.shared";
import { paginationOf } from "../shared/list-query";
import { containsPattern } from "../shared/search";
import type { MailContext } from "../mail/mail-layout";
import {
  EMAIL_CHANGE_LINK_INVALID,
  EMAIL_CHANGE_LINK_VALID_HOURS,
  EMAIL_CHANGE_NEEDS_PASSWORD,
  RESET_LINK_INVALID,
  RESET_LINK_SENT,
} from "./accounts-values.shared";
import { queueMail } from "../mail/outbox";
import { emailChangedMail, emailChangeLinkMail, passwordChangedMail, passwordResetMail } from "./account-mails";
import { ApiToken } from "./api-token.model";
import { EmailChange, pendingEmailSql } from "./email-change.model";
import { PasswordResetToken } from "./password-reset-token.model";
import { hashPassword, verifyAgainstDecoy, verifyPassword } from "./passwords";
import { User, publicUserOf, type PublicUser, type PublicUserRow, type Role } from "./user.model";

/** How long an API token lives. */
export const API_TOKEN_TTL_DAYS = 30;
/** Every account starts at this credentials version (the column's default). */
const INITIAL_CREDENTIALS_VERSION = 1;
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
export const EMAIL_TAKEN = "An account with this email already exists";
export const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

/**
 * Log-in attempts (docs/decisions/2026-11-25-login-lockout.md): per client address (one address
 * trying many accounts); per account from one client address, so that a stranger's guesses lock
 * out only the stranger's address, never the account's owner elsewhere; and per account from
 * everywhere, slower, for a guesser spread over many addresses. One address brings at most 50
 * attempts into an hour of the last (10 in each of the five quarter-hour windows an hour can
 * touch), so it takes three addresses at full speed to lock an account out.
 */
export const LOGIN_PER_IP: RateLimitRule = { name: "login-ip", limit: 30, windowSeconds: 15 * 60 };
export const LOGIN_PER_ACCOUNT_AND_IP: RateLimitRule = { name: "login-account-ip", limit: 10, windowSeconds: 15 * 60 };
export const LOGIN_PER_ACCOUNT: RateLimitRule = { name: "login-account", limit: 100, windowSeconds: 60 * 60 };
export const SIGNUP_PER_IP: RateLimitRule = { name: "signup-ip", limit: 10, windowSeconds: 60 * 60 };
/** Password changes: the current password is checked with bcrypt, so guesses are counted first. */
export const CHANGE_PASSWORD_PER_USER: RateLimitRule = {
  name: "change-password-user",
  limit: 10,
  windowSeconds: 15 * 60,
};
export const CHANGE_PASSWORD_PER_IP: RateLimitRule = { name: "change-password-ip", limit: 30, windowSeconds: 15 * 60 };
const TOO_MANY_LOGINS = "Too many log-in attempts. Please wait a few minutes and try again.";
const TOO_MANY_PASSWORD_CHANGES = "Too many password attempts. Please wait a few minutes and try again.";
const TOO_MANY_SIGNUPS = "Too many sign-ups from this network. Please try again later.";

export { RESET_LINK_INVALID, RESET_LINK_SENT };
/** A reset link works once, within this time (docs/product.md, "Accounts"). */
export const RESET_LINK_VALID_MINUTES = 60;
/** Reset links asked for per client address, in an hour: past it, 429. */
export const FORGOT_PASSWORD_PER_IP: RateLimitRule = { name: "forgot-password-ip", limit: 20, windowSeconds: 60 * 60 };
/**
 * Reset mails per email: at most one a quarter hour, however often it is asked for (anyone can
 * type anyone's address). Past it the answer stays the same and no mail is written, so the
 * answer never says whether one was.
 */
export const RESET_MAIL_PER_EMAIL: RateLimitRule = { name: "reset-mail-email", limit: 1, windowSeconds: 15 * 60 };
const TOO_MANY_RESET_REQUESTS = "Too many reset requests. Please wait a while and try again.";

/**
 * Confirmation links mailed for email changes (asked for or sent again), per user in an hour: each
 * is a mail to an address the user typed, so the store is not a way to flood someone's mailbox.
 */
export const EMAIL_CHANGE_LINKS_PER_USER: RateLimitRule = {
  name: "email-change-links-user",
  limit: 5,
  windowSeconds: 60 * 60,
};
const TOO_MANY_EMAIL_CHANGE_LINKS = "Too many confirmation links asked for. Please wait a while and try again.";
const NO_EMAIL_CHANGE_WAITING = "No email change is waiting for confirmation";

/** What a profile save did: the user as now stored, and where a confirmation link went (an email change). */
export type ProfileUpdate = { user: PublicUser; confirmationSentTo: string | null };

/** A confirmed email change: the user with the new address, and the new credentials version. */
export type EmailChangeConfirmed = {
  user: PublicUser;
  credentialsVersion: number;
  /** The sign-in that confirmed it belongs to this user and carries on (re-stamped). */
  keptSignIn: boolean;
  /** The account's address, before and after: what the other modules follow (server/flows/email-change.ts). */
  addressChange: { from: string; to: string };
};
/**
 * "Forgot your password?" answers no sooner than this, whether or not a link was written, so the
 * time taken does not tell whether an address has an account.
 */
export const FORGOT_PASSWORD_ANSWER_MS = 250;

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** Which of the user's sign-ins survive a password change: the one that made it. */
export type CurrentSignIn = { sessionId?: string; tokenId?: string };

/**
 * A successful sign-in: the user, and the credentials version their password was checked at.
 * A session or token carries that version; a password change bumps the user's, so every
 * sign-in made before it stops working wherever the user is loaded.
 */
export type SignIn = { user: PublicUser; credentialsVersion: number };

/** What an ADMIN_EMAIL at start found: made, already an admin, or someone else's customer account. */
export type EnsureAdminOutcome = "created" | "present" | "not-an-admin";

export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
    private readonly mail: MailContext,
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
    await this.rateLimiter.hit(SIGNUP_PER_IP, client.ip, TOO_MANY_SIGNUPS);
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
    await this.rateLimiter.hit(LOGIN_PER_IP, client.ip, TOO_MANY_LOGINS);
    await this.rateLimiter.hit(LOGIN_PER_ACCOUNT_AND_IP, `${email} ${client.ip}`, TOO_MANY_LOGINS);
    await this.rateLimiter.hit(LOGIN_PER_ACCOUNT, email, TOO_MANY_LOGINS);
    const user = await User.query(this.db).modify("withPendingEmail").where("email", email).first();
    const matches = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password);
    if (!user || !matches) throw new UnauthorizedError(INCORRECT_CREDENTIALS);
    await this.rateLimiter.reset(LOGIN_PER_ACCOUNT_AND_IP, `${email} ${client.ip}`);
    await this.rateLimiter.reset(LOGIN_PER_ACCOUNT, email);
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

  /**
   * Saves name, phone and address at once. A new email takes effect only once the link mailed to
   * it is opened (docs/product.md, "Accounts"): asking needs the current password (counted like
   * password changes, before bcrypt), replaces any change still waiting, and leaves the account's
   * address as it is. A wrong or missing password refuses the whole save, beside `currentPassword`.
   */
  async updateProfile(userId: string, input: unknown, client: { ip: string }): Promise<ProfileUpdate> {
    const { currentPassword, email, ...fields } = validateInput(profileSchema, input);
    const user = await User.query(this.db).findById(userId);
    if (!user) throw new NotFoundError("User not found");
    const newEmail = email.toLowerCase() === user.email.toLowerCase() ? null : email;
    if (newEmail) {
      if (!currentPassword) {
        throw new InvalidInputError([{ field: "currentPassword", message: EMAIL_CHANGE_NEEDS_PASSWORD }]);
      }
      await this.rateLimiter.hit(CHANGE_PASSWORD_PER_USER, userId, TOO_MANY_PASSWORD_CHANGES);
      await this.rateLimiter.hit(CHANGE_PASSWORD_PER_IP, client.ip, TOO_MANY_PASSWORD_CHANGES);
      if (!(await verifyPassword(currentPassword, user.passwordHash))) {
        throw new InvalidInputError([{ field: "currentPassword", message: CURRENT_PASSWORD_INCORRECT }]);
      }
      const taken = await User.query(this.db).where("email", newEmail).whereNot("id", userId).first().select("id");
      if (taken) throw new ConflictError(EMAIL_TAKEN);
      await this.rateLimiter.hit(EMAIL_CHANGE_LINKS_PER_USER, userId, TOO_MANY_EMAIL_CHANGE_LINKS);
    }
    return this.db.transaction(async (trx) => {
      // Under the user's lock: a confirmation or another change of this user waits for this one.
      const locked = await User.query(trx).findById(userId).forUpdate().select("id");
      if (!locked) throw new NotFoundError("User not found");
      await User.query(trx)
        .findById(userId)
        .patch({
          name: fields.name,
          phone: fields.phone,
          street: fields.address.street,
          city: fields.address.city,
          state: fields.address.state,
          zipCode: fields.address.zipCode,
          country: countryOrDefault(fields.address.country),
        });
      if (newEmail) {
        await EmailChange.query(trx)
          .where({ userId, state: "pending" })
          .patch({ state: "replaced", endedAt: EmailChange.fn.now() as unknown as Date });
        const token = crypto.randomBytes(32).toString("base64url");
        await EmailChange.query(trx).insert({
          userId,
          newEmail,
          tokenHash: hashToken(token),
          // The version the password was checked at: a password changed meanwhile ends this change.
          credentialsVersion: user.credentialsVersion,
          expiresAt: linkExpiry(),
        });
        await queueMail(
          trx,
          emailChangeLinkMail(this.mail, { name: fields.name }, newEmail, token, {
            validHours: EMAIL_CHANGE_LINK_VALID_HOURS,
          }),
        );
      }
      const updated = await User.query(trx).modify("withPendingEmail").findById(userId);
      return { user: updated!.toPublic(), confirmationSentTo: newEmail };
    });
  }

  /** The new address a confirmation link would make the account's, or null when the link does not work. */
  async checkEmailChangeToken(token: unknown): Promise<{ newEmail: string } | null> {
    if (typeof token !== "string" || token.length === 0 || token.length > 200) return null;
    const change = await this.validEmailChange(this.db, token);
    return change ? { newEmail: change.newEmail } : null;
  }

  /**
   * The link mailed to a new address, used (its page's button): the address becomes the
   * account's, once, under a row lock, while the link is unexpired and the password unchanged
   * since it was asked. The credentials version moves on, so every session and token of the
   * user ends but the confirming browser's own, when it is this user's (re-stamped), and the old
   * address is told. An address another account took meanwhile is refused (409), with nothing
   * changed. In the caller's transaction: the email change flow (server/flows/email-change.ts)
   * has the stock alerts follow.
   */
  async confirmEmailChange(
    trx: Knex.Transaction,
    input: unknown,
    current: CurrentSignIn & { userId: string | null },
  ): Promise<EmailChangeConfirmed> {
    const { token } = validateInput(confirmEmailChangeSchema, input);
    // FOR UPDATE locks the change and its user: two uses of one link at once, only one wins.
    const change = await this.validEmailChange(trx, token, { lock: true });
    if (!change) throw new RuleViolationError(EMAIL_CHANGE_LINK_INVALID);
    const user = await User.query(trx).findById(change.userId);
    if (!user) throw new RuleViolationError(EMAIL_CHANGE_LINK_INVALID);
    const takenMeanwhile = new ConflictError(
      `Another account now uses ${change.newEmail}, so it cannot become your email. Choose another address on My Profile.`,
    );
    const other = await User.query(trx).where("email", change.newEmail).whereNot("id", user.id).first().select("id");
    if (other) throw takenMeanwhile;
    let credentialsVersion: number;
    try {
      const [updated] = (await User.query(trx)
        .where("id", user.id)
        .patch({
          email: change.newEmail,
          credentialsVersion: User.raw("credentials_version + 1") as unknown as number,
        })
        .returning("credentialsVersion")) as unknown as User[];
      credentialsVersion = updated!.credentialsVersion;
    } catch (error) {
      // Another account confirming the same address at this moment: its commit came first.
      throw uniqueEmailError(error) ? takenMeanwhile : error;
    }
    await EmailChange.query(trx)
      .findById(change.id)
      .patch({ state: "confirmed", endedAt: EmailChange.fn.now() as unknown as Date });
    const keep: CurrentSignIn = current.userId === user.id ? current : {};
    await this.endSignIns(trx, user.id, keep);
    if (keep.tokenId) await ApiToken.query(trx).patch({ credentialsVersion }).where("id", keep.tokenId);
    await queueMail(trx, emailChangedMail(this.mail, user, { from: user.email, to: change.newEmail, at: new Date() }));
    return {
      user: { ...user.toPublic(), email: change.newEmail, pendingEmail: null },
      credentialsVersion,
      keptSignIn: Boolean(keep.sessionId || keep.tokenId),
      addressChange: { from: user.email, to: change.newEmail },
    };
  }

  /** The signed-in user drops the email change waiting for confirmation; answers its address. */
  async cancelEmailChange(userId: string): Promise<string> {
    const { rows } = await this.db.raw<{ rows: { newEmail: string }[] }>(
      `UPDATE email_changes ec SET state = 'cancelled', ended_at = now()
         FROM users u
        WHERE u.id = ec.user_id AND ec.user_id = ? AND ec.state = 'pending' AND ec.expires_at > now()
          AND ec.credentials_version = u.credentials_version
        RETURNING ec.new_email AS "newEmail"`,
      [userId],
    );
    if (!rows[0]) throw new RuleViolationError(NO_EMAIL_CHANGE_WAITING);
    return rows[0].newEmail;
  }

  /**
   * Mails the waiting change's link again: a new token (the earlier link stops working) with a
   * full validity. Counted with the changes asked for; answers the address it went to.
   */
  async resendEmailChangeLink(userId: string): Promise<string> {
    await this.rateLimiter.hit(EMAIL_CHANGE_LINKS_PER_USER, userId, TOO_MANY_EMAIL_CHANGE_LINKS);
    return this.db.transaction(async (trx) => {
      const change = (await EmailChange.query(trx)
        .join("users", "users.id", "email_changes.userId")
        .where("email_changes.userId", userId)
        .modify(livePendingChange)
        .forUpdate()
        .first()
        .select("email_changes.id", "email_changes.newEmail", "users.name")) as
        (EmailChange & { name: string }) | undefined;
      if (!change) throw new RuleViolationError(NO_EMAIL_CHANGE_WAITING);
      const token = crypto.randomBytes(32).toString("base64url");
      await EmailChange.query(trx)
        .findById(change.id)
        .patch({ tokenHash: hashToken(token), expiresAt: linkExpiry() });
      await queueMail(
        trx,
        emailChangeLinkMail(this.mail, { name: change.name }, change.newEmail, token, {
          validHours: EMAIL_CHANGE_LINK_VALID_HOURS,
        }),
      );
      return change.newEmail;
    });
  }

  /**
   * Changes the password after checking the current one, and ends every other session and
   * token of the user: whoever knew the old password is signed out everywhere else. Attempts
   * are counted per user and per client address before the hash is checked. Answers the new
   * credentials version, which the sign-in that made the change carries on with.
   */
  async changePassword(
    userId: string,
    input: unknown,
    current: CurrentSignIn,
    client: { ip: string },
  ): Promise<{ credentialsVersion: number }> {
    const { currentPassword, newPassword } = validateInput(changePasswordSchema, input);
    await this.rateLimiter.hit(CHANGE_PASSWORD_PER_USER, userId, TOO_MANY_PASSWORD_CHANGES);
    await this.rateLimiter.hit(CHANGE_PASSWORD_PER_IP, client.ip, TOO_MANY_PASSWORD_CHANGES);
    const user = await User.query(this.db).findById(userId);
    if (!user) throw new NotFoundError("User not found");
    if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      throw new UnauthorizedError(CURRENT_PASSWORD_INCORRECT);
    }
    const passwordHash = await hashPassword(newPassword);
    return this.db.transaction(async (trx) => {
      const { credentialsVersion } = await this.setPassword(trx, user, passwordHash, current, "changed");
      if (current.tokenId) await ApiToken.query(trx).patch({ credentialsVersion }).where("id", current.tokenId);
      return { credentialsVersion };
    });
  }

  /**
   * "Forgot your password?" (docs/product.md, "Accounts"): mails a reset link when the address
   * has an account and had none in the last quarter hour, and answers the same either way,
   * taking as long. Counted per client address and per email, whether or not the address has an
   * account.
   */
  async requestPasswordReset(input: unknown, client: { ip: string }): Promise<void> {
    const started = Date.now();
    const { email } = validateInput(forgotPasswordSchema, input);
    await this.rateLimiter.hit(FORGOT_PASSWORD_PER_IP, client.ip, TOO_MANY_RESET_REQUESTS);
    const mailAllowed = await this.rateLimiter.allow(RESET_MAIL_PER_EMAIL, email);
    const user = await User.query(this.db).where("email", email).first();
    if (user && mailAllowed) await this.db.transaction((trx) => this.queueResetLink(trx, user, { byAdmin: false }));
    const left = FORGOT_PASSWORD_ANSWER_MS - (Date.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }

  /** An admin sends a user a reset link (never sets or sees a password); answers the address. */
  async sendResetLink(input: unknown): Promise<string> {
    const { userId } = validateInput(sendResetLinkSchema, input);
    if (!isUuid(userId)) throw new NotFoundError("User not found");
    return this.db.transaction(async (trx) => {
      const user = await User.query(trx).findById(userId);
      if (!user) throw new NotFoundError("User not found");
      await this.queueResetLink(trx, user, { byAdmin: true });
      return user.email;
    });
  }

  /** Whether a reset link still works (the page shows the form, or says it does not). */
  async checkResetToken(token: unknown): Promise<boolean> {
    if (typeof token !== "string" || token.length === 0 || token.length > 200) return false;
    return Boolean(await this.validResetToken(this.db, token));
  }

  /**
   * Sets a new password with a reset link: single-use, within the hour, and only while the
   * password is the one it was issued for. Every session and token of the user ends (the
   * credentials version moves on); the answer signs the person in afresh (docs/product.md, "Accounts").
   */
  async resetPassword(input: unknown): Promise<SignIn> {
    const { token, password } = validateInput(resetPasswordSchema, input);
    if (!(await this.validResetToken(this.db, token))) throw new RuleViolationError(RESET_LINK_INVALID);
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (trx) => {
      // Checked again under the lock: two uses of one link at once, only one wins.
      const reset = await this.validResetToken(trx, token, { lock: true });
      if (!reset) throw new RuleViolationError(RESET_LINK_INVALID);
      const user = await User.query(trx).findById(reset.userId);
      if (!user) throw new RuleViolationError(RESET_LINK_INVALID);
      // Used up with every other open link of the user by setPassword.
      const { credentialsVersion } = await this.setPassword(trx, user, passwordHash, {}, "reset");
      return { user: user.toPublic(), credentialsVersion };
    });
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
      await this.endSignIns(trx, userId, {});
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

  /** Whether an account still signs in with this password (the published demo passwords, at start). */
  async hasPassword(email: string, password: string): Promise<boolean> {
    const user = await User.query(this.db).where("email", email).first();
    return user ? verifyPassword(password, user.passwordHash) : false;
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

  /**
   * The new password, in the caller's transaction: the credentials version moves on (every
   * session and token made before ends, but for the one kept), every open reset link is used
   * up, and the owner is told by mail.
   */
  private async setPassword(
    trx: Knex.Transaction,
    user: User,
    passwordHash: string,
    keep: CurrentSignIn,
    how: "changed" | "reset",
  ): Promise<{ credentialsVersion: number }> {
    const [updated] = (await User.query(trx)
      .where("id", user.id)
      .patch({ passwordHash, credentialsVersion: User.raw("credentials_version + 1") as unknown as number })
      .returning("credentialsVersion")) as unknown as User[];
    const credentialsVersion = updated!.credentialsVersion;
    await this.endSignIns(trx, user.id, keep);
    await PasswordResetToken.query(trx)
      .where("userId", user.id)
      .whereNull("usedAt")
      .patch({ usedAt: PasswordResetToken.fn.now() as unknown as Date });
    await queueMail(trx, passwordChangedMail(this.mail, user, new Date(), how));
    return { credentialsVersion };
  }

  /** A new reset link for this user, and its mail, in the caller's transaction. */
  private async queueResetLink(trx: Knex.Transaction, user: User, options: { byAdmin: boolean }) {
    const token = crypto.randomBytes(32).toString("base64url");
    await PasswordResetToken.query(trx).insert({
      userId: user.id,
      tokenHash: hashToken(token),
      credentialsVersion: user.credentialsVersion,
      expiresAt: PasswordResetToken.raw(`now() + interval '${RESET_LINK_VALID_MINUTES} minutes'`) as unknown as Date,
    });
    await queueMail(
      trx,
      passwordResetMail(this.mail, user, token, { byAdmin: options.byAdmin, validMinutes: RESET_LINK_VALID_MINUTES }),
    );
  }

  /** The reset link behind a token, if it is unused, unexpired and issued for the current password. */
  private async validResetToken(db: Database, token: string, options: { lock?: boolean } = {}) {
    const query = PasswordResetToken.query(db)
      .join("users", "users.id", "password_reset_tokens.userId")
      .where("password_reset_tokens.tokenHash", hashToken(token))
      .whereNull("password_reset_tokens.usedAt")
      .where("password_reset_tokens.expiresAt", ">", PasswordResetToken.fn.now())
      .whereColumn("password_reset_tokens.credentialsVersion", "users.credentialsVersion")
      .first()
      .select("password_reset_tokens.id", "password_reset_tokens.userId");
    if (options.lock) query.forUpdate();
    return query;
  }

  /** The email change behind a confirmation link, if it is still pending (livePendingChange). */
  private async validEmailChange(db: Database, token: string, options: { lock?: boolean } = {}) {
    const query = EmailChange.query(db)
      .join("users", "users.id", "email_changes.userId")
      .where("email_changes.tokenHash", hashToken(token))
      .modify(livePendingChange)
      .first()
      .select("email_changes.id", "email_changes.userId", "email_changes.newEmail");
    if (options.lock) query.forUpdate();
    return query;
  }

  /** Locks every admin row, so two admins cannot demote or delete the last two at once. */
  private lockAdmins(trx: Database) {
    return User.query(trx).select("id").where("role", "admin").forUpdate();
  }

  private async endSignIns(trx: Database, userId: string, keep: CurrentSignIn) {
    const sessions = trx("sessions").where("userId", userId);
    if (keep.sessionId) sessions.whereNot("sid", keep.sessionId);
    await sessions.delete();
    const tokens = ApiToken.query(trx).where("userId", userId);
    if (keep.tokenId) tokens.whereNot("id", keep.tokenId);
    await tokens.delete();
  }
}

/**
 * A change that still waits (joined with its user): pending, unexpired, and asked at the user's
 * credentials version, so a password change or reset since has ended it. The user's pendingEmail
 * (pendingEmailSql) is read by the same rule.
 */
function livePendingChange(query: QueryBuilder<EmailChange>) {
  query
    .where("email_changes.state", "pending")
    .where("email_changes.expiresAt", ">", EmailChange.fn.now())
    .whereColumn("email_changes.credentialsVersion", "users.credentialsVersion");
}

/** When a confirmation link mailed now stops working. */
function linkExpiry(): Date {
  return EmailChange.raw(`now() + interval '${EMAIL_CHANGE_LINK_VALID_HOURS} hours'`) as unknown as Date;
}

function uniqueEmailError(error: unknown): ConflictError | null {
  const code =
    (error as { nativeError?: { code?: string }; code?: string }).nativeError?.code ??
    (error as { code?: string }).code;
  const constraint = (error as { constraint?: string; nativeError?: { constraint?: string } }).nativeError?.constraint;
  if (code === "23505" && (!constraint || constraint.includes("email"))) return new ConflictError(EMAIL_TAKEN);
  return null;
}
