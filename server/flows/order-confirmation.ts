import type { Knex } from "knex";
import type { Database } from "../db/database";
import type { MailContext } from "../modules/mail/mail-layout";
import {
  CONFIRMATION_CLOSED,
  lockAnsweringOrder,
  lockOrderByToken,
  recordCancelReason,
  queueOrderTexts,
  recordCancelledByCustomer,
  recordConfirmed,
  type AnsweringOrder,
} from "../modules/confirmation/order-confirmation";
import {
  CONFIRMATION_TEXTS_MAX,
  NOT_CONFIRMED_REASON,
  SENT_TOO_OFTEN,
  isAnswerable,
  isConfirmedByAnswer,
  type TextChannel,
} from "../modules/confirmation/order-confirmation.shared";
import { setOrderStatus } from "../modules/orders/order-state";
import { cancelledByCustomerMail, orderStatusMail } from "../modules/orders/order-mails";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError, NotFoundError } from "../modules/shared/errors.shared";
import { isUuid } from "../db/ids";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { giveStockBack } from "./cancellation";
import {
  type ConfirmationChannel,
  type ConfirmationStatus,
  type MessageLanguage,
} from "../modules/orders/order-values.shared";
import { readOrderRows } from "../modules/order-life/orders-reading";

/** The customer's two answers to the confirmation. */
export type ConfirmationAnswer = "confirm" | "cancel";

/** A customer's channel of answer: the link's page, a WhatsApp button or an SMS reply. */
export type CustomerChannel = Exclude<ConfirmationChannel, "phone">;

/** What the confirmation page shows: the order as its customer knows it, in its language. */
export type ConfirmationPage = {
  orderId: string;
  language: MessageLanguage;
  items: { name: string; quantity: number; price: number }[];
  totalPrice: number;
  /** The last four digits of the order's phone ("" without one). */
  phoneLastFour: string;
  confirmation: ConfirmationStatus;
  /** Whether Confirm and Cancel still do something: Pending and not yet booked with a courier. */
  open: boolean;
};

/**
 * The customer's answer to the store's confirmation message (docs/product.md, "Confirming an
 * order"), by the link's page, a WhatsApp button or an SMS reply: confirming records who, how
 * and when (twice is harmless); cancelling cancels the order as cancelling on /my-orders does
 * (its stock back, its discount code's use given back, the customer and the store told), while
 * it is Pending and not yet booked with a courier, whatever its age.
 */
export class OrderConfirmationFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** The channel a new text tries first (services.ts). */
      textChannel: TextChannel;
      /** CONFIRM_REMIND_AFTER and CONFIRM_CANCEL_AFTER (null: never cancelled), in hours. */
      deadlines: { remindAfterHours: number; cancelAfterHours: number | null };
      clock?: Clock;
    },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /** The page of a token; 404 when the token is no order's. */
  async pageFor(token: string): Promise<ConfirmationPage> {
    const order = await lockOrderByToken(this.db, token, { lock: false });
    const [row] = await readOrderRows(this.db, (query) => query.where("orders.id", order.id));
    const view = row!.toPublic();
    return {
      orderId: order.id,
      language: order.language,
      items: view.items.map((item) => ({ name: item.product.name, quantity: item.quantity, price: item.price })),
      totalPrice: view.totalPrice,
      phoneLastFour: order.phone ? order.phone.slice(-4) : "",
      confirmation: order.confirmationStatus,
      open: isAnswerable(order),
    };
  }

  /** The answer given on the link's page (404 for a token of no order; 409 once the order shipped or was cancelled). */
  async answerByLink(token: string, answer: ConfirmationAnswer): Promise<ConfirmationPage> {
    await this.db.transaction(async (trx) => {
      const order = await lockOrderByToken(trx, token);
      await this.answer(trx, order, answer, "link");
    });
    return this.pageFor(token);
  }

  /**
   * Applies an answer to a locked order, in the caller's transaction: true when it changed the
   * order, false when it was already so (a second confirmation). 409 when the order can no
   * longer be answered.
   */
  async answer(
    trx: Knex.Transaction,
    order: AnsweringOrder,
    answer: ConfirmationAnswer,
    channel: CustomerChannel,
  ): Promise<boolean> {
    const now = this.now();
    if (answer === "confirm") {
      if (order.confirmationStatus === "confirmed" && order.status !== "Cancelled") return false;
      if (!isAnswerable(order)) throw new ConflictError(CONFIRMATION_CLOSED);
      return recordConfirmed(trx, order, { by: "customer", channel, now });
    }
    if (!isAnswerable(order)) throw new ConflictError(CONFIRMATION_CLOSED);
    await giveStockBack(trx, this.deps.mail, order.id);
    await setOrderStatus(trx, order, { status: "Cancelled", now });
    await recordCancelledByCustomer(trx, order, { channel, now });
    await this.deps.messages.queue(trx, [
      messageOf(orderStatusMail(this.deps.mail, order, "Cancelled", { byCustomer: true }), order.phone),
      messageOf(cancelledByCustomerMail(this.deps.mail, order)),
    ]);
    if (order.phone) {
      await queueOrderTexts(trx, [
        {
          orderId: order.id,
          channel: this.deps.textChannel,
          kind: "cancellation",
          language: order.language,
          phone: order.phone,
        },
      ]);
    }
    return true;
  }

  /**
   * The admin's "Send again": the confirmation text once more, to an order with a phone still
   * waiting for its answer, at most CONFIRMATION_TEXTS_MAX texts in all (409 otherwise, with why).
   */
  async sendAgain(orderId: string): Promise<void> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await lockAnsweringOrder(trx, orderId);
      if (!order.phone) throw new ConflictError("This order has no mobile number to send its confirmation to");
      if (!isConfirmedByAnswer(order)) {
        throw new ConflictError("An order paid in advance is confirmed by its payment, not by a confirmation text");
      }
      if (order.confirmationStatus !== "pending" || !isAnswerable(order)) {
        throw new ConflictError("Only an order waiting for its confirmation can be sent it again");
      }
      const [{ count }] = await trx("order_messages")
        .where({ order_id: orderId, kind: "confirmation" })
        .count<{ count: string }[]>("* as count");
      if (Number(count) >= CONFIRMATION_TEXTS_MAX) throw new ConflictError(SENT_TOO_OFTEN);
      await queueOrderTexts(trx, [
        { orderId, channel: this.deps.textChannel, kind: "confirmation", language: order.language, phone: order.phone },
      ]);
    });
  }

  /**
   * The confirmations' deadlines, at `now` (the crontab's job, every minute, once across servers):
   * one reminder for each order still waiting CONFIRM_REMIND_AFTER hours after it was placed, and
   * orders still waiting CONFIRM_CANCEL_AFTER hours cancelled with the reason "Not confirmed",
   * their stock and discount code's use given back, and the customer told by mail and text. Only
   * orders that got a text count, and only when texts really leave the store (WhatsApp or SMS):
   * with texts written to files, the admin confirms by phone as before and nothing is cancelled.
   */
  async runDeadlines(): Promise<{ reminded: number; cancelled: number }> {
    if (this.deps.textChannel === "file") return { reminded: 0, cancelled: 0 };
    const now = this.now();
    const hours = (count: number) => new Date(now.getTime() - count * 3600_000);
    const { remindAfterHours, cancelAfterHours } = this.deps.deadlines;
    const cancelBefore = cancelAfterHours === null ? null : hours(cancelAfterHours);
    const reminded = await this.db.transaction(async (trx) => {
      // One sweep at a time writes reminders (the crontab's slot is once, an admin's run may meet it).
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('confirmation-deadlines'))");
      const { rows } = await trx.raw<{ rows: unknown[] }>(
        `INSERT INTO order_messages (order_id, channel, kind, language, phone)
         SELECT orders.id, :channel, 'reminder', orders.language, orders.phone
           FROM orders
          WHERE orders.status = 'Pending' AND orders.confirmation_status = 'pending' AND orders.phone IS NOT NULL
            AND orders.courier IS NULL AND orders.tracking_number IS NULL
            AND orders.created_at <= :remindBefore
            AND (:cancelBefore::timestamptz IS NULL OR orders.created_at > :cancelBefore::timestamptz)
            AND EXISTS (SELECT 1 FROM order_messages sent WHERE sent.order_id = orders.id AND sent.kind = 'confirmation')
            AND NOT EXISTS (SELECT 1 FROM order_messages sent WHERE sent.order_id = orders.id AND sent.kind = 'reminder')
         RETURNING id`,
        { channel: this.deps.textChannel, remindBefore: hours(remindAfterHours), cancelBefore },
      );
      return rows.length;
    });
    let cancelled = 0;
    if (cancelBefore) {
      const due = await this.db("orders")
        .where({ status: "Pending", confirmation_status: "pending" })
        .whereNotNull("phone")
        .whereNull("courier")
        .whereNull("tracking_number")
        .where("created_at", "<=", cancelBefore)
        .whereExists((query) => query.select(1).from("order_messages").whereRaw("order_messages.order_id = orders.id"))
        .orderBy("created_at")
        .limit(DEADLINE_BATCH)
        .pluck("id");
      for (const orderId of due as string[]) {
        if (await this.cancelNotConfirmed(orderId, cancelBefore, now)) cancelled += 1;
      }
    }
    return { reminded, cancelled };
  }

  /** Cancels one order nobody confirmed, if it is still so under its lock (an answer may have just come). */
  private async cancelNotConfirmed(orderId: string, cancelBefore: Date, now: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const order = await lockAnsweringOrder(trx, orderId);
      if (order.confirmationStatus !== "pending" || !isAnswerable(order)) return false;
      if (new Date(order.createdAt).getTime() > cancelBefore.getTime()) return false;
      await giveStockBack(trx, this.deps.mail, order.id);
      await setOrderStatus(trx, order, { status: "Cancelled", now });
      await recordCancelReason(trx, order.id, NOT_CONFIRMED_REASON);
      await this.deps.messages.queue(trx, [
        messageOf(orderStatusMail(this.deps.mail, order, "Cancelled", { notConfirmed: true }), order.phone),
      ]);
      await queueOrderTexts(trx, [
        {
          orderId: order.id,
          channel: this.deps.textChannel,
          kind: "cancellation",
          language: order.language,
          phone: order.phone!,
        },
      ]);
      return true;
    });
  }
}

/** Orders cancelled by one sweep at most; the next minute's takes the rest. */
const DEADLINE_BATCH = 200;
