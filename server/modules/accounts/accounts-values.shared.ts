/** Texts of the accounts module that the pages show as they are (docs/product.md, "Accounts"). */

/** The one answer to "forgot your password?", whether or not the address has an account. */
export const RESET_LINK_SENT = "If an account exists for that email, we have sent a link.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired";
export const PASSWORD_RESET_DONE = "Your password was reset. You are signed in.";
