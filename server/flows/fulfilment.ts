import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import type { MailContext } from "../modules/mail/mail-layout";
import { orderStatusMail, returnedToSenderMail } from "../modules/orders/order-mails";
import {
  lockOrder,
  markReceivedBack,
  type LockedOrder,
  markReturnedToSender,
  refuseWithReturns,
  setOrderStatus,
} from "../modules/orders/order-state";
import { refuseUnpaidShipping } from "../modules/payments/order-payment";
import type { PublicOrder } from "../modules/orders/order.shape";
import type { OrderStatus, ReturnToSenderReason } from "../modules/orders/order-values.shared";
import { systemClock, type Clock } from "../modules/shared/clock";
import { InvalidInputError, NotFoundError } from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import type { Courier, CourierProvider } from "../providers/couriers/courier-providers.shared";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { giveStockBack, restoreCancelled } from "./cancellation";
import { orderOutcomeSchema, orderStatusSchema } from "./fulfilment.schemas";
import { confirmOrder, undoConfirmation } from "../modules/confirmation/order-confirmation";
import { readOrder } from "../modules/order-life/orders-reading";

/**
 * The store's side of an order after checkout (docs/product.md, "Orders", "Shipping an order",
 * "Confirming an order by phone"): the confirmation by phone, and the status through Shipped
 * (with the courier and the tracking number), Delivered or Cancelled, each with its stock and
 * discount consequences and the customer's message, in one transaction.
 */
export class FulfilmentFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** Those COURIER_PROVIDERS chooses: an order ships with one of their courier names. */
      couriers: readonly CourierProvider[];
      clock?: Clock;
    },
  ) {}

  /** The courier names an order may ship with: those of the chosen providers (the ship page's choice). */
  get courierNames(): string[] {
    return [...new Set(this.deps.couriers.flatMap((provider) => provider.courierNames))];
  }

  /**
   * Sets any of the four statuses from any state (docs/product.md, "Orders"). Cancelling returns
   * the stock in the same transaction; leaving Cancelled claims it again, and a discount code's
   * use, refused when either is gone. With Shipped come the courier and the tracking number,
   * kept when the status changes later. Becoming Delivered records when (the 7 days of a return
   * run from it); a delivered order with a return that was not rejected stays Delivered
   * (docs/product.md, "Returns"). The customer hears of Shipped, Delivered and Cancelled.
   */
  async updateStatus(orderId: string, input: unknown): Promise<PublicOrder> {
    const { status, courier, trackingNumber } = validateInput(orderStatusSchema, input);
    if (courier && !this.courierNames.includes(courier)) {
      throw new InvalidInputError([{ field: "courier", message: `${courier} is not a courier this store ships with` }]);
    }
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction(async (trx) => {
      const order = await lockOrder(trx, orderId);
      await this.moveOrder(trx, order, { status, courier, trackingNumber }, now);
    });
    return readOrder(this.db, orderId);
  }

  /**
   * updateStatus's work on an order locked in the caller's transaction: the admin's change, and
   * the courier's news of a parcel (server/flows/courier-sync.ts) go the same way.
   */
  async moveOrder(
    trx: Knex,
    order: LockedOrder,
    change: { status: OrderStatus; courier?: Courier; trackingNumber?: string },
    now: Date,
  ): Promise<void> {
    const { status, courier, trackingNumber } = change;
    const orderId = order.id;
    // A bank transfer ships only once its payment is verified (docs/product.md, "Paying in advance").
    if (status !== order.status) refuseUnpaidShipping(order, status);
    if (order.status === "Delivered" && status !== "Delivered") await refuseWithReturns(trx, orderId);
    const wasCancelled = order.status === "Cancelled";
    const willBeCancelled = status === "Cancelled";
    if (!wasCancelled && willBeCancelled) await giveStockBack(trx, this.deps.mail, orderId);
    if (wasCancelled && !willBeCancelled) await restoreCancelled(trx, order);
    await setOrderStatus(trx, order, { status, now, courier, trackingNumber });
    if (status !== order.status && status !== "Pending") {
      const shipped = {
        ...order,
        courier: courier || order.courier,
        trackingNumber: trackingNumber || order.trackingNumber,
      };
      await this.deps.messages.queue(trx, [messageOf(orderStatusMail(this.deps.mail, shipped, status), order.phone)]);
    }
  }

  /**
   * The courier brought a Shipped order's parcel back (docs/product.md, "Returned to sender"): the
   * order becomes Cancelled with the outcome; the customer gets no mail (nothing they need to do),
   * the store's outbox records it. The stock comes back only when the parcel is received back.
   */
  async recordOutcome(orderId: string, input: unknown): Promise<PublicOrder> {
    const { reason } = validateInput(orderOutcomeSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction((trx) => this.returnToSender(trx, orderId, reason, now));
    return readOrder(this.db, orderId);
  }

  /** recordOutcome's work in the caller's transaction (the courier's news of a return, too). */
  async returnToSender(trx: Knex, orderId: string, reason: ReturnToSenderReason, now: Date): Promise<void> {
    const order = await markReturnedToSender(trx, orderId, { reason, now });
    await this.deps.messages.queue(trx, [messageOf(returnedToSenderMail(this.deps.mail, order, reason))]);
  }

  /**
   * The returned parcel is back in the store: its units go back in stock (and sold-out watches'
   * alerts are mailed) in the same transaction, once; a second time is a 409.
   */
  async receiveBack(orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction(async (trx) => {
      await markReceivedBack(trx, orderId, now);
      await giveStockBack(trx, this.deps.mail, orderId);
    });
    return readOrder(this.db, orderId);
  }

  /**
   * Records that the store confirmed a Pending order with its customer by phone, and which admin
   * did. A second confirmation changes nothing; an order no longer Pending is refused (409).
   */
  async confirmOrder(orderId: string, admin: { _id: string; name: string }): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    await this.db.transaction((trx) => confirmOrder(trx, orderId, admin, now));
    return readOrder(this.db, orderId);
  }

  /** Undoes a confirmation made by mistake, while the order is still Pending (the admin pages only). */
  async undoConfirmation(orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction((trx) => undoConfirmation(trx, orderId));
    return readOrder(this.db, orderId);
  }
}
