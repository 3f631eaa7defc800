/** Texts of the accounts module that the pages show as they are (docs/product.md, "Accounts"). */

/** The one answer to "forgot your password?", whether or not the address has an account. */
export const RESET_LINK_SENT = "If an account exists for that email, we have sent a link.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired";
export const PASSWORD_RESET_DONE = "Your password was reset. You are signed in.";

/** A new password's length (the sign-up rule, for every new password; docs/product.md, "Accounts"). */
export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
export const PASSWORD_MAX_BYTES = 72;

/** A confirmation link for a new email that is used, expired, replaced or unknown. */
export const EMAIL_CHANGE_LINK_INVALID = "This confirmation link is invalid or has expired";
/** A confirmation link works once, within this time (docs/product.md, "Accounts"). */
export const EMAIL_CHANGE_LINK_VALID_HOURS = 24;
/** Changing the email asks for the password; a name, phone or address change does not. */
export const EMAIL_CHANGE_NEEDS_PASSWORD = "Enter your current password to change your email";
