import type { Response } from "express";

/**
 * An answer made for one person: the session or the token named a user, and the user was loaded
 * for it. The flag is set where the user is loaded (the pages' load context, the API's bearer
 * check), never guessed from headers, and the guest page cache refuses to keep such an answer.
 */
export function markPersonalised(res: Response): void {
  res.locals.personalised = true;
}

export function isPersonalised(res: Response): boolean {
  return res.locals.personalised === true;
}
