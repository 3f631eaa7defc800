import type { Knex } from "knex";
import type { Database } from "../db/database";
import type { MailContext } from "../modules/mail/mail-layout";
import {
  confirmationTextsSent,
  orderIdByToken,
  queueOrderTexts,
  reminderCandidates,
  sweepCandidates,
} from "../modules/confirmation/order-confirmation";
import {
  CONFIRMATION_TEXTS_MAX,
  NOT_CONFIRMED_REASON,
  SENT_TOO_OFTEN,
  type TextChannel,
} from "../modules/confirmation/order-confirmation.shared";
import { awaitsAnswer, type LifeEvent } from "../modules/order-life/order-life.shared";
import { offers } from "../modules/order-life/order-life-view.shared";
import type { LiveOrder } from "../modules/order-life/order-life";
import { cancelledByCustomerMail, orderStatusMail } from "../modules/orders/order-mails";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError, NotFoundError } from "../modules/shared/errors.shared";
import { isUuid } from "../db/ids";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import type { OrderLifeFlow } from "./order-life";
import {
  type ConfirmationChannel,
  type ConfirmationStatus,
  type MessageLanguage,
} from "../modules/orders/order-values.shared";
import { readOrders } from "../modules/order-life/orders-reading";

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
      life: OrderLifeFlow;
      clock?: Clock;
    },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /** The page of a token; 404 when the token is no order's. */
  async pageFor(token: string): Promise<ConfirmationPage> {
    const orderId = await orderIdByToken(this.db, token);
    const [view] = await readOrders(this.db, (query) => query.where("orders.id", orderId));
    return {
      orderId,
      language: view!.language,
      items: view!.items.map((item) => ({ name: item.product.name, quantity: item.quantity, price: item.price })),
      totalPrice: view!.totalPrice,
      phoneLastFour: view!.phone ? view!.phone.slice(-4) : "",
      confirmation: view!.confirmation.status,
      open: view!.actions.answer,
    };
  }

  /** The answer given on the link's page (404 for a token of no order; 409 once the order shipped or was cancelled). */
  async answerByLink(token: string, answer: ConfirmationAnswer): Promise<ConfirmationPage> {
    const orderId = await orderIdByToken(this.db, token);
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      await this.answer(trx, order, answer, "link");
    });
    return this.pageFor(token);
  }

  /**
   * Applies an answer to a locked order, in the caller's transaction: true when it changed the
   * order, false when it was already so (a second confirmation). 409 when the order can no
   * longer be answered (the order's life: Pending, cash on delivery, not handed to a courier).
   */
  async answer(trx: Knex, order: LiveOrder, answer: ConfirmationAnswer, channel: CustomerChannel): Promise<boolean> {
    const now = this.now();
    if (answer === "confirm") {
      return this.deps.life.run(trx, order, { kind: "confirmed", by: "customer" }, { now, channel });
    }
    await this.deps.life.run(trx, order, { kind: "cancelled", by: "customer-answer" }, { now, channel });
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
   * The admin's "Send again": the confirmation text once more, to a cash-on-delivery order with a
   * phone still waiting for its answer (whether or not the first reached the customer), at most
   * CONFIRMATION_TEXTS_MAX texts in all (409 otherwise, with why).
   */
  async sendAgain(orderId: string): Promise<void> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      if (!order.phone) throw new ConflictError("This order has no mobile number to send its confirmation to");
      if (order.life.advance) {
        throw new ConflictError("An order paid in advance is confirmed by its payment, not by a confirmation text");
      }
      if (order.life.confirmation !== "pending" || !offers(order.life, now).answer) {
        throw new ConflictError("Only an order waiting for its confirmation can be sent it again");
      }
      if ((await confirmationTextsSent(trx, orderId)) >= CONFIRMATION_TEXTS_MAX)
        throw new ConflictError(SENT_TOO_OFTEN);
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
   * orders whose request really reached the customer by WhatsApp or SMS wait (the order's life,
   * awaitsAnswer): an order paid in advance, one whose text is only a file (no channel yet), or
   * one kept back by the phone's text limit is the admin's to confirm by phone, never swept.
   */
  async runDeadlines(): Promise<{ reminded: number; cancelled: number }> {
    const now = this.now();
    const hours = (count: number) => new Date(now.getTime() - count * 3600_000);
    const { remindAfterHours, cancelAfterHours } = this.deps.deadlines;
    const cancelBefore = cancelAfterHours === null ? null : hours(cancelAfterHours);
    let reminded = 0;
    for (const orderId of await reminderCandidates(this.db, { remindBefore: hours(remindAfterHours), cancelBefore })) {
      const done = await this.db.transaction(async (trx) => {
        const order = await this.deps.life.lock(trx, orderId);
        if (!awaitsAnswer(order.life) || !order.phone) return false;
        if ((await confirmationTextsSent(trx, orderId, "reminder")) > 0) return false;
        await queueOrderTexts(trx, [
          { orderId, channel: this.deps.textChannel, kind: "reminder", language: order.language, phone: order.phone },
        ]);
        return true;
      });
      if (done) reminded += 1;
    }
    let cancelled = 0;
    if (cancelBefore) {
      for (const orderId of await sweepCandidates(this.db, cancelBefore, DEADLINE_BATCH)) {
        if (await this.cancelNotConfirmed(orderId, cancelBefore, now)) cancelled += 1;
      }
    }
    return { reminded, cancelled };
  }

  /** Cancels one order nobody confirmed, if the table still says so under its lock (an answer may have just come). */
  private async cancelNotConfirmed(orderId: string, cancelBefore: Date, now: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      const event: LifeEvent = { kind: "cancelled", by: "sweep" };
      if (!this.deps.life.allows(order, event, now)) return false;
      if (new Date(order.createdAt).getTime() > cancelBefore.getTime()) return false;
      await this.deps.life.run(trx, order, event, { now, cancelReason: NOT_CONFIRMED_REASON });
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
