import type { Knex } from "knex";
import { moveWaitingStockAlerts, queueDueStockAlerts } from "../modules/catalog/stock-alerts.service";
import type { MailContext } from "../modules/mail/mail-layout";

/**
 * "Notify me when it's back" across the modules (docs/product.md, "Back in stock"). The alerts
 * are the catalogue's (catalog/stock-alerts.service.ts), and a change of the catalogue's own
 * (a product's stock raised) mails them itself; these are the reactions to other modules'
 * changes, which the flows call in their transactions.
 */

/**
 * Stock came back by an order (a cancellation, a received return): the waiting alerts of the
 * products that were sold out are mailed with it, in the same transaction.
 */
export async function alertRestocked(trx: Knex, mail: MailContext, soldOutBefore: string[]): Promise<void> {
  if (soldOutBefore.length > 0) await queueDueStockAlerts(trx, mail, soldOutBefore);
}

/**
 * An account's address changed (a confirmed email change): its waiting alerts follow the
 * account to the new address, in the same transaction (moveWaitingStockAlerts says how).
 */
export async function alertsFollowAddress(trx: Knex, change: { from: string; to: string }): Promise<void> {
  await moveWaitingStockAlerts(trx, change.from, change.to);
}
