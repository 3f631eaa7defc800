import crypto from "node:crypto";
import type { Knex } from "knex";
import { ConflictError } from "../shared/errors.shared";
import type { RateLimitRule } from "../shared/rate-limiter";
import { ApiToken } from "./api-token.model";
import type { PublicUser } from "./user.model";

/**
 * What the accounts module's services share about signing in (docs/decisions/2026-11-23-credentials-version.md):
 * the credentials version a sign-in carries, the sign-ins a change of password or email ends,
 * and the counting of password guesses.
 */

/** Every account starts at this credentials version (the column's default). */
export const INITIAL_CREDENTIALS_VERSION = 1;

export const EMAIL_TAKEN = "An account with this email already exists";
export const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

/** Password changes: the current password is checked with bcrypt, so guesses are counted first. */
export const CHANGE_PASSWORD_PER_USER: RateLimitRule<"account"> = {
  name: "change-password-user",
  per: "account",
  limit: 10,
  windowSeconds: 15 * 60,
};
export const CHANGE_PASSWORD_PER_IP: RateLimitRule<"address"> = {
  name: "change-password-ip",
  per: "address",
  limit: 30,
  windowSeconds: 15 * 60,
};
export const TOO_MANY_PASSWORD_CHANGES = "Too many password attempts. Please wait a few minutes and try again.";

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

/** Ends every session and API token of the user but the one kept, in the caller's transaction. */
export async function endSignIns(trx: Knex, userId: string, keep: CurrentSignIn): Promise<void> {
  const sessions = trx("sessions").where("userId", userId);
  if (keep.sessionId) sessions.whereNot("sid", keep.sessionId);
  await sessions.delete();
  const tokens = ApiToken.query(trx).where("userId", userId);
  if (keep.tokenId) tokens.whereNot("id", keep.tokenId);
  await tokens.delete();
}

/** The answer to an email another account holds (the unique index said so): 409. */
export function uniqueEmailError(error: unknown): ConflictError | null {
  const code =
    (error as { nativeError?: { code?: string }; code?: string }).nativeError?.code ??
    (error as { code?: string }).code;
  const constraint = (error as { constraint?: string; nativeError?: { constraint?: string } }).nativeError?.constraint;
  if (code === "23505" && (!constraint || constraint.includes("email"))) return new ConflictError(EMAIL_TAKEN);
  return null;
}
