import type { AccountsService, StoredPageSession } from "../modules/accounts/accounts.service";
import { cartQuantitySql } from "../modules/cart/cart.service";

/**
 * A signed-in page's start (server/http/page-session.ts): the stored session, the user it signs
 * in (accounts) and the quantity in their cart for the top bar's badge (cart), read in one query.
 */
export class PageSessionFlow {
  constructor(private readonly accounts: AccountsService) {}

  readPageSession(sessionId: string, now: Date): Promise<StoredPageSession | null> {
    return this.accounts.readPageSession(sessionId, now, cartQuantitySql);
  }
}
