import crypto from "node:crypto";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import {
  ConflictError,
  NotFoundError,
  RuleViolationError,
  UnauthorizedError,
} from "../../domain-errors";
import { validateInput } from "../../http/validate";
import type { RateLimiter, RateLimitRule } from "../../rate-limiter";
import {
  changePasswordFormSchema,
  changePasswordSchema,
  createAdminSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  roleSchema,
  signupFormSchema,
  userListQuerySchema,
} from "./accounts.schemas";
import { ApiToken } from "./api-token.model";
import { hashPassword, verifyAgainstDecoy, verifyPassword } from "./passwords";
import { User, type PublicUser, type Role } from "./user.model";

/** How long an API token lives. */
export const API_TOKEN_TTL_DAYS = 30;
export const USERS_PAGE_SIZE = 50;

export const INCORRECT_CREDENTIALS = "Incorrect email or password";
export const EMAIL_TAKEN = "An account with this email already exists";
export const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

/** Log-in attempts: per client address, and per email (a slow guess at one account). */
export const LOGIN_PER_IP: RateLimitRule = { name: "login-ip", limit: 30, windowSeconds: 15 * 60 };
export const LOGIN_PER_EMAIL: RateLimitRule = { name: "login-email", limit: 10, windowSeconds: 15 * 60 };
export const SIGNUP_PER_IP: RateLimitRule = { name: "signup-ip", limit: 10, windowSeconds: 60 * 60 };
const TOO_MANY_LOGINS = "Too many log-in attempts. Please wait a few minutes and try again.";
const TOO_MANY_SIGNUPS = "Too many sign-ups from this network. Please try again later.";

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** Which of the user's sign-ins survive a password change: the one that made it. */
export type CurrentSignIn = { sessionId?: string; tokenId?: string };

export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async findUserById(id: string): Promise<PublicUser | null> {
    if (!isUuid(id)) return null;
    const user = await User.query(this.db).findById(id);
    return user ? user.toPublic() : null;
  }

  /** A new customer account. The email must not be taken (whatever its letter case). */
  async register(input: unknown, client: { ip: string }, options: { confirmation?: boolean } = {}): Promise<PublicUser> {
    // The sign-up page also asks for the password twice; the API does not.
    const fields = validateInput(options.confirmation ? signupFormSchema : registerSchema, input);
    await this.rateLimiter.hit(SIGNUP_PER_IP, client.ip, TOO_MANY_SIGNUPS);
    return this.createUser(fields, "customer");
  }

  /**
   * Checks an email and password. A failure never says which of the two was wrong, and takes as
   * long for an unknown email as for a wrong password.
   */
  async logIn(input: unknown, client: { ip: string }): Promise<PublicUser> {
    const { email, password } = validateInput(loginSchema, input);
    await this.rateLimiter.hit(LOGIN_PER_IP, client.ip, TOO_MANY_LOGINS);
    await this.rateLimiter.hit(LOGIN_PER_EMAIL, email, TOO_MANY_LOGINS);
    const user = await User.query(this.db).where("email", email).first();
    const matches = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password);
    if (!user || !matches) throw new UnauthorizedError(INCORRECT_CREDENTIALS);
    await this.rateLimiter.reset(LOGIN_PER_EMAIL, email);
    return user.toPublic();
  }

  /** Issues a new opaque API token; only its hash is stored. */
  async issueToken(userId: string): Promise<{ token: string; tokenId: string }> {
    const token = crypto.randomBytes(32).toString("base64url");
    const row = await ApiToken.query(this.db).insert({
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + API_TOKEN_TTL_DAYS * 24 * 3600 * 1000),
    });
    return { token, tokenId: row.id };
  }

  /**
   * The user behind a token, or null when it is unknown, expired or revoked. One query: this
   * runs on every API request that carries a token.
   */
  async authenticateToken(token: string): Promise<{ user: PublicUser; tokenId: string } | null> {
    if (token.length > 200) return null;
    const user = (await User.query(this.db)
      .select("users.*", "apiTokens.id as tokenId")
      .join("apiTokens", "apiTokens.userId", "users.id")
      .where("apiTokens.tokenHash", hashToken(token))
      .where("apiTokens.expiresAt", ">", new Date())
      .first()) as (User & { tokenId: string }) | undefined;
    return user ? { user: user.toPublic(), tokenId: user.tokenId } : null;
  }

  async revokeToken(tokenId: string): Promise<void> {
    await ApiToken.query(this.db).deleteById(tokenId);
  }

  async updateProfile(userId: string, input: unknown): Promise<PublicUser> {
    const fields = validateInput(profileSchema, input);
    try {
      const user = await User.query(this.db).patchAndFetchById(userId, {
        name: fields.name,
        email: fields.email,
        phone: fields.phone,
        street: fields.address.street,
        city: fields.address.city,
        state: fields.address.state,
        zipCode: fields.address.zipCode,
        country: fields.address.country || "Pakistan",
      });
      if (!user) throw new NotFoundError("User not found");
      return user.toPublic();
    } catch (error) {
      throw uniqueEmailError(error) ?? error;
    }
  }

  /**
   * Changes the password after checking the current one, and ends every other session and
   * token of the user: whoever knew the old password is signed out everywhere else.
   */
  async changePassword(
    userId: string,
    input: unknown,
    current: CurrentSignIn,
    options: { confirmation?: boolean } = {},
  ): Promise<void> {
    const { currentPassword, newPassword } = validateInput(
      options.confirmation ? changePasswordFormSchema : changePasswordSchema,
      input,
    );
    const user = await User.query(this.db).findById(userId);
    if (!user) throw new NotFoundError("User not found");
    if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      throw new UnauthorizedError(CURRENT_PASSWORD_INCORRECT);
    }
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (trx) => {
      await User.query(trx).patch({ passwordHash }).where("id", userId);
      await this.endSignIns(trx, userId, current);
    });
  }

  async listUsers(query: unknown) {
    const { page, limit, search, role } = validateInput(userListQuerySchema, query);
    const filtered = User.query(this.db).modify((builder) => {
      if (role) builder.where("role", role);
      if (search) {
        // The term is data: LIKE's own wildcards in it are escaped, so % and _ match themselves.
        const pattern = `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
        builder.where((inner) => inner.whereILike("name", pattern).orWhereILike("email", pattern));
      }
    });
    const [users, [{ count: total }]] = await Promise.all([
      filtered
        .clone()
        .orderBy([
          { column: "createdAt", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(limit)
        .offset((page - 1) * limit),
      filtered.clone().count("* as count") as unknown as Promise<[{ count: number }]>,
    ]);
    return {
      users: users.map((user) => user.toPublic()),
      pagination: { total, page, pages: Math.max(1, Math.ceil(total / limit)), limit },
    };
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
      const updated = await User.query(trx).patchAndFetchById(userId, { role: role as Role });
      return updated.toPublic();
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
   * An existing account with that email is made an admin; its password is left as it is.
   */
  async ensureAdmin(admin: { email: string; password: string; name: string }): Promise<"created" | "promoted" | "present"> {
    const existing = await User.query(this.db).where("email", admin.email).first();
    if (existing) {
      if (existing.role === "admin") return "present";
      await User.query(this.db).patch({ role: "admin" }).where("id", existing.id);
      return "promoted";
    }
    await User.query(this.db).insert({
      name: admin.name,
      email: admin.email,
      passwordHash: await hashPassword(admin.password),
      role: "admin",
    });
    return "created";
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

  private async endSignIns(trx: Database, userId: string, keep: CurrentSignIn) {
    const sessions = trx("sessions").where("userId", userId);
    if (keep.sessionId) sessions.whereNot("sid", keep.sessionId);
    await sessions.delete();
    const tokens = ApiToken.query(trx).where("userId", userId);
    if (keep.tokenId) tokens.whereNot("id", keep.tokenId);
    await tokens.delete();
  }
}

function uniqueEmailError(error: unknown): ConflictError | null {
  const code = (error as { nativeError?: { code?: string }; code?: string }).nativeError?.code ?? (error as { code?: string }).code;
  const constraint = (error as { constraint?: string; nativeError?: { constraint?: string } }).nativeError?.constraint;
  if (code === "23505" && (!constraint || constraint.includes("email"))) return new ConflictError(EMAIL_TAKEN);
  return null;
}
