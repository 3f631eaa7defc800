import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import type { MailContext } from "../modules/mail/mail-layout";
import { readOrder } from "../modules/order-life/orders-reading";
import type { LiveOrder } from "../modules/order-life/order-life";
import { cancelledByCustomerMail, orderStatusMail } from "../modules/orders/order-mails";
import type { PublicOrder } from "../modules/orders/order.shape";
import { refundsOf } from "../modules/payments/refunds";
import { systemClock, type Clock } from "../modules/shared/clock";
import { NotFoundError } from "../modules/shared/errors.shared";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import type { OrderLifeFlow } from "./order-life";

/**
 * The customer's own cancel (docs/product.md, "Cancelling an order"), from My Orders or the API:
 * while the order is Pending, not yet handed to a courier, and younger than 2 hours (the order's
 * life says which, server/modules/order-life/order-life.shared.ts). Anyone else's order does not
 * exist for them (404), admins included, who change the status instead. The stock comes back in
 * the same transaction; the customer and the store are told, with the refund to make when the
 * order was paid.
 */
export class CancellationFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: { mail: MailContext; messages: MessageChannels; life: OrderLifeFlow; clock?: Clock },
  ) {}

  async cancelOwnOrder(userId: string, orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId, { ownerId: userId });
      await this.deps.life.run(trx, order, { kind: "cancelled", by: "customer" }, { now });
      const refund = await refundOwed(trx, order);
      await this.deps.messages.queue(trx, [
        messageOf(orderStatusMail(this.deps.mail, order, "Cancelled", { byCustomer: true, refund }), order.phone),
        messageOf(cancelledByCustomerMail(this.deps.mail, order, { refund })),
      ]);
    });
    return readOrder(this.db, orderId);
  }
}

/** The refund a cancelled order now owes (rupees), or null: what its mails say. */
export async function refundOwed(trx: Knex, order: LiveOrder): Promise<number | null> {
  if (order.life.refund !== "due") return null;
  return (await refundsOf(trx, [order.id])).get(order.id)?.amount ?? null;
}
