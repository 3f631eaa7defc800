import type { Database } from "../db/database";
import type { EmailChangeConfirmed, ProfileService } from "../modules/accounts/profile.service";
import type { CurrentSignIn } from "../modules/accounts/sign-ins";
import { alertsFollowAddress } from "./stock-alerts";

/**
 * Confirming a new email address (docs/product.md, "Accounts"): the account takes it (accounts: profile.service.ts),
 * and the stock alerts waiting for the old address follow the account (docs/product.md, "Back in
 * stock"), in one transaction.
 */
export class EmailChangeFlow {
  constructor(
    private readonly db: Database,
    private readonly profile: ProfileService,
  ) {}

  /** The link mailed to the new address, used (its page's button); see ProfileService.confirmEmailChange. */
  async confirmEmailChange(
    input: unknown,
    current: CurrentSignIn & { userId: string | null },
  ): Promise<EmailChangeConfirmed> {
    return this.db.transaction(async (trx) => {
      const confirmed = await this.profile.confirmEmailChange(trx, input, current);
      await alertsFollowAddress(trx, confirmed.addressChange);
      return confirmed;
    });
  }
}
