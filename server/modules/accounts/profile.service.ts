import crypto from "node:crypto";
import type { Knex } from "knex";
import type { QueryBuilder } from "objection";
import type { Database } from "../../db/database";
import type { MailContext } from "../mail/mail-layout";
import { queueMail } from "../mail/outbox";
import { countryOrDefault } from "../shared/address.shared";
import { CallerAccountGoneError, ConflictError, InvalidInputError, RuleViolationError } from "../shared/errors.shared";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { validateInput } from "../shared/validation";
import { emailChangedMail, emailChangeLinkMail } from "./account-mails";
import {
  EMAIL_CHANGE_LINK_INVALID,
  EMAIL_CHANGE_LINK_VALID_HOURS,
  EMAIL_CHANGE_NEEDS_PASSWORD,
} from "./accounts-values.shared";
import { confirmEmailChangeSchema, profileSchema } from "./accounts.schemas";
import { ApiToken } from "./api-token.model";
import { EmailChange } from "./email-change.model";
import { verifyPassword } from "./passwords";
import {
  CHANGE_PASSWORD_PER_IP,
  CHANGE_PASSWORD_PER_USER,
  CURRENT_PASSWORD_INCORRECT,
  EMAIL_TAKEN,
  TOO_MANY_PASSWORD_CHANGES,
  endSignIns,
  hashToken,
  uniqueEmailError,
  type CurrentSignIn,
} from "./sign-ins";
import { User, type PublicUser } from "./user.model";

/**
 * Confirmation links mailed for email changes (asked for or sent again), per user in an hour: each
 * is a mail to an address the user typed, so the store is not a way to flood someone's mailbox.
 */
export const EMAIL_CHANGE_LINKS_PER_USER: RateLimitRule<"account"> = {
  name: "email-change-links-user",
  per: "account",
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
 * The customer's profile (docs/product.md, "Accounts"): name, phone and address saved at once,
 * and a new email that becomes the account's only through the link mailed to it.
 */
export class ProfileService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
    private readonly mail: MailContext,
  ) {}

  /**
   * Saves name, phone and address at once. A new email takes effect only once the link mailed to
   * it is opened (docs/product.md, "Accounts"): asking needs the current password (counted like
   * password changes, before bcrypt), replaces any change still waiting, and leaves the account's
   * address as it is. A wrong or missing password refuses the whole save, beside `currentPassword`.
   */
  async updateProfile(userId: string, input: unknown, client: { ip: string }): Promise<ProfileUpdate> {
    const { currentPassword, email, ...fields } = validateInput(profileSchema, input);
    const user = await User.query(this.db).findById(userId);
    if (!user) throw new CallerAccountGoneError();
    const newEmail = email.toLowerCase() === user.email.toLowerCase() ? null : email;
    if (newEmail) {
      if (!currentPassword) {
        throw new InvalidInputError([{ field: "currentPassword", message: EMAIL_CHANGE_NEEDS_PASSWORD }]);
      }
      await this.rateLimiter.hit(CHANGE_PASSWORD_PER_USER, { account: userId }, TOO_MANY_PASSWORD_CHANGES);
      await this.rateLimiter.hit(CHANGE_PASSWORD_PER_IP, { address: client.ip }, TOO_MANY_PASSWORD_CHANGES);
      if (!(await verifyPassword(currentPassword, user.passwordHash))) {
        throw new InvalidInputError([{ field: "currentPassword", message: CURRENT_PASSWORD_INCORRECT }]);
      }
      const taken = await User.query(this.db).where("email", newEmail).whereNot("id", userId).first().select("id");
      if (taken) throw new ConflictError(EMAIL_TAKEN);
      await this.rateLimiter.hit(EMAIL_CHANGE_LINKS_PER_USER, { account: userId }, TOO_MANY_EMAIL_CHANGE_LINKS);
    }
    return this.db.transaction(async (trx) => {
      // Under the user's lock: a confirmation or another change of this user waits for this one.
      const locked = await User.query(trx).findById(userId).forUpdate().select("id");
      if (!locked) throw new CallerAccountGoneError();
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
    await endSignIns(trx, user.id, keep);
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
    await this.rateLimiter.hit(EMAIL_CHANGE_LINKS_PER_USER, { account: userId }, TOO_MANY_EMAIL_CHANGE_LINKS);
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
