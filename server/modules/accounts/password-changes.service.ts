import crypto from "node:crypto";
import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import type { MailContext } from "../mail/mail-layout";
import { queueMail } from "../mail/outbox";
import { CallerAccountGoneError, NotFoundError, RuleViolationError, UnauthorizedError } from "../shared/errors.shared";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { validateInput } from "../shared/validation";
import { passwordChangedMail, passwordResetMail } from "./account-mails";
import { RESET_LINK_INVALID, RESET_LINK_SENT } from "./accounts-values.shared";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  sendResetLinkSchema,
} from "./accounts.schemas";
import { ApiToken } from "./api-token.model";
import { PasswordResetToken } from "./password-reset-token.model";
import { hashPassword, verifyPassword } from "./passwords";
import {
  CHANGE_PASSWORD_PER_IP,
  CHANGE_PASSWORD_PER_USER,
  CURRENT_PASSWORD_INCORRECT,
  TOO_MANY_PASSWORD_CHANGES,
  endSignIns,
  hashToken,
  type CurrentSignIn,
  type SignIn,
} from "./sign-ins";
import { User } from "./user.model";

export { RESET_LINK_INVALID, RESET_LINK_SENT };
/** A reset link works once, within this time (docs/product.md, "Accounts"). */
export const RESET_LINK_VALID_MINUTES = 60;
/** Reset links asked for per client address, in an hour: past it, 429. */
export const FORGOT_PASSWORD_PER_IP: RateLimitRule<"address"> = {
  name: "forgot-password-ip",
  per: "address",
  limit: 20,
  windowSeconds: 60 * 60,
};
/**
 * Reset mails per email: at most one a quarter hour, however often it is asked for (anyone can
 * type anyone's address). Past it the answer stays the same and no mail is written, so the
 * answer never says whether one was.
 */
export const RESET_MAIL_PER_EMAIL: RateLimitRule<"account"> = {
  name: "reset-mail-email",
  per: "account",
  limit: 1,
  windowSeconds: 15 * 60,
};
const TOO_MANY_RESET_REQUESTS = "Too many reset requests. Please wait a while and try again.";
/**
 * "Forgot your password?" answers no sooner than this, whether or not a link was written, so the
 * time taken does not tell whether an address has an account.
 */
export const FORGOT_PASSWORD_ANSWER_MS = 250;

/**
 * A password changed by its owner, or reset with a link mailed to them (docs/product.md,
 * "Accounts"): either way every other sign-in ends and the owner is told.
 */
export class PasswordChangesService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
    private readonly mail: MailContext,
  ) {}

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
    await this.rateLimiter.hit(CHANGE_PASSWORD_PER_USER, { account: userId }, TOO_MANY_PASSWORD_CHANGES);
    await this.rateLimiter.hit(CHANGE_PASSWORD_PER_IP, { address: client.ip }, TOO_MANY_PASSWORD_CHANGES);
    const user = await User.query(this.db).findById(userId);
    if (!user) throw new CallerAccountGoneError();
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
    await this.rateLimiter.hit(FORGOT_PASSWORD_PER_IP, { address: client.ip }, TOO_MANY_RESET_REQUESTS);
    const mailAllowed = await this.rateLimiter.allow(RESET_MAIL_PER_EMAIL, { account: email });
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
    await endSignIns(trx, user.id, keep);
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
}
