import type { Knex } from "knex";
import { claimUnits, returnUnits } from "../modules/catalog/stock";
import {
  recordCancelReason,
  recordCancelledByCustomer,
  recordConfirmed,
  recordUnconfirmed,
} from "../modules/confirmation/order-confirmation";
import { reclaimDiscount } from "../modules/discounts/discounts.service";
import { cancelledShipment, liveShipment } from "../modules/fulfilment/shipments";
import type { MailContext } from "../modules/mail/mail-layout";
import {
  decide,
  refusalOf,
  type LifeEffect,
  type LifeEvent,
  type LifeState,
} from "../modules/order-life/order-life.shared";
import { lockLife, readLife, type LiveOrder } from "../modules/order-life/order-life";
import type { ConfirmationChannel, ReturnToSenderReason } from "../modules/orders/order-values.shared";
import {
  orderLines,
  orderUnits,
  recordParcel,
  recordReceivedBack,
  recordReturnedToSender,
  setOrderStatus,
} from "../modules/orders/order-state";
import {
  recordPaymentReference,
  recordPaymentRejected,
  recordPaymentVerified,
} from "../modules/payments/order-payment";
import { dropRefundDue, recordRefundDue, recordRefundPaid } from "../modules/payments/refunds";
import type { RefundMethod } from "../modules/orders/return-values.shared";
import { CodedConflictError, ConflictError, OutsideServiceError } from "../modules/shared/errors.shared";
import { fromPaisa, toPaisa } from "../modules/shared/money.shared";
import type { Courier } from "../providers/couriers/courier-providers.shared";
import { CourierRefused, CourierUnreachable } from "../providers/couriers/courier-http";
import type { ApiCourierClient } from "./courier-clients";
import { alertRestocked } from "./stock-alerts";

/** What an event carries besides its kind: the words and figures its columns keep. */
export type LifeDetails = {
  now: Date;
  /** `reference-sent`: the transfer's reference. */
  reference?: string;
  /** `payment-verified`: the amount received (the order's total when an admin verifies). */
  verifiedAmount?: number;
  /** `payment-rejected`: why, for the customer. */
  rejectedReason?: string;
  /** `confirmed` and the customer's cancel by answer: how the answer came, and the admin who phoned. */
  channel?: ConfirmationChannel;
  admin?: { _id: string; name: string };
  /** `shipped`, `booked`: the courier and its tracking number. */
  courier?: Courier;
  trackingNumber?: string;
  /** `returned`: the courier's reason, as the store records it. */
  outcomeReason?: ReturnToSenderReason;
  /** The cancellations by the store: why ("Not confirmed", "Not paid"). */
  cancelReason?: string;
  /** `refund-paid`: how it was paid back. */
  refund?: { method: RefundMethod; reference: string | null; by: string };
};

/**
 * Runs the events of an order's life (server/modules/order-life/order-life.shared.ts): every
 * flow that changes an order's status, payment, confirmation or parcel locks it with `lock`, asks
 * `run`, and writes its own messages after. `run` refuses what the table refuses (409 with its
 * words and code), performs the event's effects (the courier's cancel first: if the courier
 * refuses, nothing changes) and writes the columns, in the caller's transaction.
 */
export class OrderLifeFlow {
  constructor(
    private readonly deps: {
      mail: MailContext;
      /** The couriers booked through their APIs: a live consignment is cancelled through its own. */
      couriers: readonly ApiCourierClient[];
    },
  ) {}

  lock(trx: Knex, orderId: string, options: { ownerId?: string } = {}): Promise<LiveOrder> {
    return lockLife(trx, orderId, options);
  }

  /**
   * The event on an order locked in this transaction: false when it changes nothing (a second
   * confirmation), true when done; the order's `life` (and status) follow.
   */
  async run(trx: Knex, order: LiveOrder, event: LifeEvent, details: LifeDetails): Promise<boolean> {
    const decision = decide(order.life, event, details.now);
    if (!decision.allowed) throw new CodedConflictError(decision.refusal.message, decision.refusal.code);
    if (!decision.changed) return false;
    for (const effect of decision.effects) await this.perform(trx, order, effect);
    await this.write(trx, order, event, decision.next, details);
    order.life = decision.next;
    order.status = decision.next.status;
    order.paymentStatus = decision.next.payment;
    order.confirmationStatus = decision.next.confirmation;
    return true;
  }

  /**
   * Refuses, as `run` would, an event the order cannot take now, read without a lock: asked before
   * work that must not start for someone else's order or a closed one (an upload read and decoded);
   * `run` asks again under the lock.
   */
  async check(db: Knex, orderId: string, options: { ownerId?: string }, event: LifeEvent, now: Date): Promise<void> {
    const order = await readLife(db, orderId, options);
    const refusal = refusalOf(order.life, event, now);
    if (refusal) throw new CodedConflictError(refusal.message, refusal.code);
  }

  /** Whether the event would be taken now, without taking it (a sweep's second look under the lock). */
  allows(order: { life: LifeState }, event: LifeEvent, now: Date): boolean {
    const decision = decide(order.life, event, now);
    return decision.allowed && decision.changed;
  }

  private async perform(trx: Knex, order: LiveOrder, effect: LifeEffect): Promise<void> {
    switch (effect) {
      case "cancel-consignment":
        return this.cancelConsignment(trx, order);
      case "stock-back":
        return giveStockBack(trx, this.deps.mail, order.id);
      case "stock-claim":
        return claimStockAgain(trx, order);
      case "discount-claim":
        return reclaimDiscount(trx, order);
      case "refund-due":
        return recordRefundDue(trx, order.id, paidAmount(order));
      case "refund-dropped":
        return dropRefundDue(trx, order.id);
    }
  }

  /**
   * The consignment cancelled through its courier's API, under the order's lock (nothing else
   * moves the order meanwhile): a refusal is a 409 with the courier's words and no answer a 502,
   * and either rolls the whole event back.
   */
  private async cancelConsignment(trx: Knex, order: LiveOrder): Promise<void> {
    const shipment = await liveShipment(trx, order.id);
    if (!shipment || shipment.state !== "booked") return;
    const courier = this.deps.couriers.find((known) => known.name === shipment.courier);
    if (!courier) {
      throw new ConflictError(
        `${shipment.courier} is not on in this store's settings: cancel the parcel with it first`,
      );
    }
    try {
      await courier.booking.cancel(shipment.trackingNumber!);
    } catch (error) {
      if (error instanceof CourierRefused) {
        throw new CodedConflictError(
          `${courier.name} refused to cancel the parcel: ${error.message}`,
          "COURIER_REFUSED",
        );
      }
      if (error instanceof CourierUnreachable) throw new OutsideServiceError(error.message);
      throw error;
    }
    await cancelledShipment(trx, shipment.id, new Date());
  }

  /** The columns of the event, each written by the module that owns them. */
  private async write(trx: Knex, order: LiveOrder, event: LifeEvent, next: LifeState, details: LifeDetails) {
    const { now } = details;
    switch (event.kind) {
      case "reference-sent":
        return recordPaymentReference(trx, order.id, { reference: details.reference!, now });
      case "payment-verified":
        return recordPaymentVerified(trx, order.id, {
          amount: details.verifiedAmount ?? Number(order.totalPrice),
          now,
        });
      case "payment-rejected":
        return recordPaymentRejected(trx, order.id, details.rejectedReason!);
      case "confirmed":
        return recordConfirmed(trx, order, {
          by: event.by,
          channel: details.channel ?? "phone",
          now,
          admin: details.admin,
        });
      case "confirmation-undone":
        return recordUnconfirmed(trx, order.id);
      case "booked":
        return recordParcel(trx, order.id, { courier: details.courier!, trackingNumber: details.trackingNumber! });
      case "booking-cancelled":
        return recordParcel(trx, order.id, { courier: null, trackingNumber: null });
      // The attempt's own row is the shipping flow's (server/flows/shipping.ts): the order's columns wait for the answer.
      case "booking-requested":
      case "booking-refused":
        return;
      case "returned":
        return recordReturnedToSender(trx, order.id, { reason: details.outcomeReason ?? "Other", now });
      case "received-back":
        return recordReceivedBack(trx, order.id, now);
      case "refund-paid":
        return recordRefundPaid(trx, order.id, { ...details.refund!, now });
      case "cancelled":
        await setOrderStatus(trx, order, { status: "Cancelled", now, byCustomer: event.by === "customer" });
        if (event.by === "customer-answer") {
          await recordCancelledByCustomer(trx, order, { channel: (details.channel ?? "link") as "link", now });
        }
        if (details.cancelReason) await recordCancelReason(trx, order.id, details.cancelReason);
        return;
      case "picked-up":
      case "shipped":
      case "delivered":
      case "back-to-pending":
      case "reopened":
        return setOrderStatus(trx, order, {
          status: next.status,
          now,
          courier: details.courier,
          trackingNumber: details.trackingNumber,
        });
    }
  }
}

/** The money the store holds for the order: the verified amount, else (cash collected at the door) its total. */
function paidAmount(order: LiveOrder): number {
  if (order.paymentVerifiedAmount !== null && order.paymentVerifiedAmount !== undefined) {
    return Number(order.paymentVerifiedAmount);
  }
  return fromPaisa(toPaisa(Number(order.totalPrice)));
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
 * is refused with the reason (a product no longer sold, or short of stock; the code used up).
 */
async function claimStockAgain(trx: Knex, order: LiveOrder): Promise<void> {
  const { gone, short } = await claimUnits(trx, await orderLines(trx, order.id));
  if (gone.length > 0) throw new ConflictError(`Cannot restore this order: ${gone.join(", ")} is no longer sold`);
  if (short.length > 0) throw new ConflictError(`Cannot restore this order: not enough stock for ${short.join(", ")}`);
  await reclaimDiscount(trx, order);
}
