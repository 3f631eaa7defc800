import bcrypt from "bcrypt";

/** bcrypt's work factor: about a quarter of a second per hash on a small server. */
export const BCRYPT_COST = 12;
export { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from "./accounts-values.shared";

export function hashPassword(password: string, cost = BCRYPT_COST): Promise<string> {
  return bcrypt.hash(password, cost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

// A hash of a password nobody has, compared against when an email is unknown, so that a failed
// log-in takes as long whether or not the account exists.
let decoyHash: Promise<string> | null = null;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword("decoy-password-that-no-account-has");
  await bcrypt.compare(password, await decoyHash);
  return false;
}
