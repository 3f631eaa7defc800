import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import type { MailContext } from "../modules/mail/mail-layout";
import type { LifeEvent } from "../modules/order-life/order-life.shared";
import type { LiveOrder } from "../modules/order-life/order-life";
import { readOrder } from "../modules/order-life/orders-reading";
import { orderStatusMail, returnedToSenderMail } from "../modules/orders/order-mails";
import { setOrderStatus } from "../modules/orders/order-state";
import type { PublicOrder } from "../modules/orders/order.shape";
import type { OrderStatus, ReturnToSenderReason } from "../modules/orders/order-values.shared";
import { refundRecordSchema } from "../modules/orders/returns.schemas";
import type { RefundMethod } from "../modules/orders/return-values.shared";
import { systemClock, type Clock } from "../modules/shared/clock";
import { InvalidInputError, NotFoundError } from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import type { Courier, CourierProvider } from "../providers/couriers/courier-providers.shared";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { refundOwed } from "./cancellation";
import { orderOutcomeSchema, orderStatusSchema } from "./fulfilment.schemas";
import type { OrderLifeFlow } from "./order-life";

/** Who moves an order's status: an admin (any status from any other), or the courier's news of its parcel. */
export type StatusSource = "admin" | "courier";

/**
 * The events of a status change, in order (docs/product.md, "Orders": an admin may set any status
 * from any other): leaving Cancelled restores the order first, then moves it on; the same status
 * again is nothing (a shipped order's courier and tracking number may still be corrected).
 */
export function statusEvents(from: OrderStatus, to: OrderStatus, source: StatusSource): LifeEvent[] {
  if (from === to) return to === "Shipped" ? [{ kind: "shipped" }] : [];
  if (to === "Cancelled") return [{ kind: "cancelled", by: "admin" }];
  const onward: LifeEvent[] =
    to === "Shipped"
      ? [{ kind: source === "courier" ? "picked-up" : "shipped" }]
      : to === "Delivered"
        ? [{ kind: "delivered" }]
        : from === "Cancelled"
          ? []
          : [{ kind: "back-to-pending" }];
  return from === "Cancelled" ? [{ kind: "reopened" }, ...onward] : onward;
}

/**
 * The store's side of an order after checkout (docs/product.md, "Orders", "Shipping an order",
 * "Confirming an order by phone", "Returned to sender"): each a run of the order's life
 * (server/flows/order-life.ts), with the customer's message, in one transaction.
 */
export class FulfilmentFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** Those COURIER_PROVIDERS chooses: an order ships with one of their courier names. */
      couriers: readonly CourierProvider[];
      life: OrderLifeFlow;
      clock?: Clock;
    },
  ) {}

  /** The courier names an order may ship with: those of the chosen providers (the ship page's choice). */
  get courierNames(): string[] {
    return [...new Set(this.deps.couriers.flatMap((provider) => provider.courierNames))];
  }

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /**
   * Sets any of the four statuses (PATCH /orders/{id}/status, the admin's status form): each
   * change is the order's life's events (statusEvents), refused as the table refuses them. With
   * Shipped come the courier and the tracking number, kept when the status changes later. The
   * customer hears of Shipped, Delivered and Cancelled.
   */
  async updateStatus(orderId: string, input: unknown): Promise<PublicOrder> {
    const { status, courier, trackingNumber } = validateInput(orderStatusSchema, input);
    if (courier && !this.courierNames.includes(courier)) {
      throw new InvalidInputError([{ field: "courier", message: `${courier} is not a courier this store ships with` }]);
    }
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      await this.moveOrder(trx, order, { status, courier, trackingNumber }, now);
    });
    return readOrder(this.db, orderId);
  }

  /**
   * updateStatus's work on an order locked in the caller's transaction: the admin's change, and
   * the courier's news of a parcel (server/flows/courier-sync.ts, `source: "courier"`).
   */
  async moveOrder(
    trx: Knex,
    order: LiveOrder,
    change: { status: OrderStatus; courier?: Courier; trackingNumber?: string },
    now: Date,
    source: StatusSource = "admin",
  ): Promise<void> {
    const { status, courier, trackingNumber } = change;
    const from = order.status;
    for (const event of statusEvents(from, status, source)) {
      await this.deps.life.run(trx, order, event, { now, courier, trackingNumber });
    }
    // A shipped order's courier or tracking number corrected: the same status, new details.
    if (from === status && status === "Shipped" && (courier || trackingNumber)) {
      await setOrderStatus(trx, order, { status, now, courier, trackingNumber });
    }
    if (status !== from && status !== "Pending") {
      const told = {
        ...order,
        courier: courier || order.courier,
        trackingNumber: trackingNumber || order.trackingNumber,
      };
      const refund = status === "Cancelled" ? await refundOwed(trx, order) : null;
      await this.deps.messages.queue(trx, [
        messageOf(orderStatusMail(this.deps.mail, told, status, { refund }), order.phone),
      ]);
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
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      await this.returnToSender(trx, order, reason, now);
    });
    return readOrder(this.db, orderId);
  }

  /** recordOutcome's work on an order locked in the caller's transaction (the courier's news of a return, too). */
  async returnToSender(trx: Knex, order: LiveOrder, reason: ReturnToSenderReason, now: Date): Promise<void> {
    await this.deps.life.run(trx, order, { kind: "returned" }, { now, outcomeReason: reason });
    await this.deps.messages.queue(trx, [messageOf(returnedToSenderMail(this.deps.mail, order, reason))]);
  }

  /**
   * The returned parcel is back in the store: its units go back in stock (and sold-out watches'
   * alerts are mailed) in the same transaction, once; a second time is a 409.
   */
  async receiveBack(orderId: string): Promise<PublicOrder> {
    return this.runEvent(orderId, { kind: "received-back" });
  }

  /**
   * Records that the store confirmed a Pending order with its customer by phone, and which admin
   * did. A second confirmation changes nothing; an order no longer Pending is refused (409).
   */
  async confirmOrder(orderId: string, admin: { _id: string; name: string }): Promise<PublicOrder> {
    return this.runEvent(orderId, { kind: "confirmed", by: "admin" }, { channel: "phone", admin });
  }

  /** Undoes a confirmation made by mistake, while the order is still Pending (the admin pages only). */
  async undoConfirmation(orderId: string): Promise<PublicOrder> {
    return this.runEvent(orderId, { kind: "confirmation-undone" });
  }

  /**
   * Records the refund a cancelled paid order owed (POST /orders/{id}/refund, the admin's order
   * page): how it was paid back and its reference, as a return's refund is recorded.
   */
  async recordRefund(orderId: string, input: unknown, admin: { name: string }): Promise<PublicOrder> {
    const { method, reference } = validateInput(refundRecordSchema, input);
    return this.runEvent(
      orderId,
      { kind: "refund-paid" },
      { refund: { method: method as RefundMethod, reference: reference ?? null, by: admin.name } },
    );
  }

  private async runEvent(
    orderId: string,
    event: LifeEvent,
    details: Omit<Parameters<OrderLifeFlow["run"]>[3], "now"> = {},
  ): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      await this.deps.life.run(trx, order, event, { ...details, now });
    });
    return readOrder(this.db, orderId);
  }
}
