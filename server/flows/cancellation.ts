import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import { claimUnits, returnUnits } from "../modules/catalog/stock";
import { reclaimDiscount } from "../modules/discounts/discounts.service";
import type { MailContext } from "../modules/mail/mail-layout";
import { cancelledByCustomerMail, orderStatusMail } from "../modules/orders/order-mails";
import { lockOrder, orderLines, orderUnits, setOrderStatus, type LockedOrder } from "../modules/orders/order-state";
import { CANCEL_NOT_PENDING, CANCEL_TOO_LATE, isCancellableByCustomer } from "../modules/orders/order-values.shared";
import type { PublicOrder } from "../modules/orders/order.shape";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError, NotFoundError } from "../modules/shared/errors.shared";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { alertRestocked } from "./stock-alerts";
import { readOrder } from "../modules/order-life/orders-reading";

/**
 * Cancelling an order (docs/product.md, "Cancelling an order"), by its customer here, or by an
 * admin's status change (fulfilment.ts), which uses the two steps below: the order's units go
 * back on the shelf with it, and leaving Cancelled claims them, and its discount code's use,
 * again.
 */
export class CancellationFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: { mail: MailContext; messages: MessageChannels; clock?: Clock },
  ) {}

  /**
   * The customer cancels their own order: only while it is Pending and younger than 2 hours (409
   * otherwise, with the reason); anyone else's order does not exist for them (404), admins
   * included, who change the status instead. The stock comes back in the same transaction, as
   * when an admin cancels; the customer and the store are told.
   */
  async cancelOwnOrder(userId: string, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction(async (trx) => {
      const order = await lockOrder(trx, orderId, { ownerId: userId });
      if (order.status !== "Pending") throw new ConflictError(CANCEL_NOT_PENDING);
      if (!isCancellableByCustomer(order, now)) throw new ConflictError(CANCEL_TOO_LATE);
      await giveStockBack(trx, this.deps.mail, order.id);
      await setOrderStatus(trx, order, { status: "Cancelled", now, byCustomer: true });
      await this.deps.messages.queue(trx, [
        messageOf(orderStatusMail(this.deps.mail, order, "Cancelled", { byCustomer: true }), order.phone),
        messageOf(cancelledByCustomerMail(this.deps.mail, order)),
      ]);
    });
    return readOrder(this.db, orderId);
  }
}

/**
 * A cancelled order's units go back on the shelf; a product that was sold out has its waiting
 * stock alerts mailed, in this transaction (docs/product.md, "Back in stock").
 */
export async function giveStockBack(trx: Knex, mail: MailContext, orderId: string): Promise<void> {
  await alertRestocked(trx, mail, await returnUnits(trx, orderUnits(trx, orderId)));
}

/**
 * An order leaving Cancelled claims its units again, and its discount code's use, or the change
 * is refused with the reason (a product no longer sold, or short of stock; the code used up). A
 * parcel returned to sender and not yet received back never gave its units back, so there are
 * none to claim (RULINGS: leaving Cancelled follows the same rules otherwise).
 */
export async function restoreCancelled(trx: Knex, order: LockedOrder): Promise<void> {
  if (order.outcomeKind === "returned" && !order.receivedBackAt) {
    await reclaimDiscount(trx, order);
    return;
  }
  const { gone, short } = await claimUnits(trx, await orderLines(trx, order.id));
  if (gone.length > 0) throw new ConflictError(`Cannot restore this order: ${gone.join(", ")} is no longer sold`);
  if (short.length > 0) throw new ConflictError(`Cannot restore this order: not enough stock for ${short.join(", ")}`);
  await reclaimDiscount(trx, order);
}
