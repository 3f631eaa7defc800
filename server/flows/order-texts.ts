import type { Knex } from "knex";
import type { Database } from "../db/database";
import { bankAccountOf } from "../modules/payments/bank-transfer.shared";
import {
  chooseOrderText,
  orderText,
  templateParameters,
  type TextOrder,
} from "../modules/confirmation/confirmation-texts.shared";
import { ordersAwaitingAnswer } from "../modules/order-life/order-life";
import { confirmationToken, queueOrderTexts } from "../modules/confirmation/order-confirmation";
import {
  isPaymentTextKind,
  isTextStillDue,
  type ConfirmationTextKind,
  type OrderMessageKind,
  type PaymentTextKind,
} from "../modules/confirmation/order-confirmation.shared";
import { bankTransferSettings } from "../modules/confirmation/order-rules";
import {
  lockQueuedText,
  recordTextResult,
  recordTextRetry,
  type QueuedText,
} from "../modules/confirmation/queued-texts";
import { Order } from "../modules/orders/order.model";
import { attemptTemplateParameters, attemptText } from "../modules/fulfilment/parcel-texts.shared";
import { attemptEventOf } from "../modules/fulfilment/shipment-events";
import { paymentTemplateParameters, paymentText } from "../modules/confirmation/payment-texts.shared";
import { systemClock, type Clock } from "../modules/shared/clock";
import type { OutgoingText, SendOutcome, TextChannelClient } from "../providers/message-channels/text-channel";

/** The settings a text is written with: the WhatsApp templates by kind, and their language codes. */
export type TextTemplates = {
  templates: Record<OrderMessageKind, string>;
  templateLanguages: { en: string; ur: string };
};

/** What became of one try at a queued text. */
export type TextDelivery =
  /** Sent (or nothing left to do: already sent, answered meanwhile, taken by another server). */
  | { done: true; fallbackId?: string | null }
  /** Not sent now: to be tried again later (the caller's job retries with backoff). */
  | { done: false; error: string };

/** The Confirm and Cancel buttons' payloads: the action, then the order's token. */
export const BUTTON_PAYLOAD = /^(CONFIRM|CANCEL):([A-Za-z0-9_-]{43})$/;

/**
 * Sending an order's texts (docs/product.md, "Confirming an order"): one queued text, written in
 * the transaction of the change that caused it, is sent by its channel, and what the provider
 * said recorded on it. The text is locked while it is sent (FOR UPDATE SKIP LOCKED), and only a
 * queued one is sent, so two app servers never send one text twice. A WhatsApp text the provider
 * refuses (or reports failed) goes by SMS at once, when SMS is configured. A try that fails for
 * now leaves the text queued and tells the caller to try again later: nothing is lost.
 */
export class OrderTextsFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      /** The configured channels; `file` always (the texts' files under DATA_DIR). */
      channels: { whatsapp: TextChannelClient | null; sms: TextChannelClient | null; file: TextChannelClient };
      whatsapp: TextTemplates | null;
      secret: string;
      publicUrl: string;
      storeName: string;
      clock?: Clock;
    },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /** Sends one queued text (by its id); see TextDelivery. */
  async send(messageId: string): Promise<TextDelivery> {
    const delivery = await this.db.transaction(async (trx) => {
      const text = await lockQueuedText(trx, messageId, { skipLocked: true });
      if (!text) return { done: true } as const;
      const order = await Order.query(trx)
        .findById(text.orderId)
        .select("id", "customerName", "totalPrice", "status", "confirmationStatus", "paymentRejectedReason");
      if (!order) return { done: true } as const;
      // A text whose news the order has overtaken (answered, cancelled, delivered) is not sent.
      if (!isTextStillDue(text.kind, order)) {
        await this.record(trx, text.id, {
          status: "failed",
          error:
            text.kind === "delivery-attempt"
              ? "Not sent: the order was delivered or returned first"
              : "Not sent: the order was answered or cancelled first",
        });
        return { done: true } as const;
      }
      const outcome =
        text.kind === "delivery-attempt"
          ? await this.sendAttemptText(trx, text, order)
          : text.kind === "choose-order"
            ? await this.sendChooseOrderText(trx, text)
            : isPaymentTextKind(text.kind)
              ? await this.sendPaymentText(trx, { ...text, kind: text.kind }, order)
              : await this.sendConfirmationText({ ...text, kind: text.kind }, order);
      if (outcome.kind === "sent") {
        await this.record(trx, text.id, { status: "sent", providerMessageId: outcome.providerMessageId });
        return { done: true } as const;
      }
      if (outcome.kind === "retry") {
        await recordTextRetry(trx, text, { error: outcome.error, now: this.now() });
        return { done: false, error: outcome.error } as const;
      }
      await this.record(trx, text.id, { status: "failed", error: outcome.error });
      const fallbackId = await this.fallBackToSms(trx, text);
      return { done: true, fallbackId } as const;
    });
    // The SMS that replaces a refused WhatsApp text goes at once.
    if (delivery.done && delivery.fallbackId) await this.send(delivery.fallbackId);
    return delivery;
  }

  /**
   * A WhatsApp text the provider reported `failed` (its webhook) goes by SMS, once: answers the
   * new text's id to send, or null (SMS not configured, not a WhatsApp text, or already done).
   */
  async fallBackAfterFailure(trx: Knex, text: QueuedText): Promise<string | null> {
    return this.fallBackToSms(trx, text);
  }

  /** Gives up on a text that kept failing: it is marked failed, and SMS takes over from WhatsApp. */
  async giveUp(messageId: string, error: string): Promise<string | null> {
    return this.db.transaction(async (trx) => {
      const text = await lockQueuedText(trx, messageId, { skipLocked: false });
      if (!text) return null;
      await this.record(trx, text.id, { status: "failed", error });
      return this.fallBackToSms(trx, text);
    });
  }

  private async fallBackToSms(trx: Knex, text: QueuedText): Promise<string | null> {
    if (text.channel !== "whatsapp" || !this.deps.channels.sms) return null;
    const [id] = await queueOrderTexts(trx, [
      {
        orderId: text.orderId,
        channel: "sms",
        kind: text.kind,
        language: text.language,
        phone: text.phone,
        shipmentEventId: text.shipmentEventId,
      },
    ]);
    return id ?? null;
  }

  private async record(
    trx: Knex,
    id: string,
    result: { status: "sent"; providerMessageId: string } | { status: "failed"; error: string },
  ): Promise<void> {
    await recordTextResult(trx, id, result, this.now());
  }

  /**
   * A text about a transfer's payment (docs/product.md, "Paying in advance"): the account and the
   * hours to pay as the order settings hold them now, the reason as the order keeps it; the link
   * is the customer's order page, where the reference is sent. No buttons: it asks no answer.
   */
  private async sendPaymentText(
    trx: Knex,
    text: QueuedText & { kind: PaymentTextKind },
    order: Pick<Order, "id" | "customerName" | "totalPrice" | "paymentRejectedReason">,
  ): Promise<SendOutcome> {
    const settings = await bankTransferSettings(trx);
    const paymentOrder = {
      id: order.id,
      customerName: order.customerName,
      totalPrice: Number(order.totalPrice),
      storeName: this.deps.storeName,
      link: `${this.deps.publicUrl}/my-orders/${order.id}`,
      account: bankAccountOf(settings),
      hoursToPay: settings.unpaidTransferHours,
      rejectedReason: order.paymentRejectedReason,
    };
    return this.sendTemplated(text, {
      parameters: paymentTemplateParameters(text.language, text.kind, paymentOrder),
      body: paymentText(text.language, text.kind, paymentOrder),
      buttons: [],
    });
  }

  /**
   * A delivery attempt's text: the courier, tracking number and reason of the event it was
   * queued for (courier-sync.ts); the link is the customer's order page, with the parcel's
   * timeline. No buttons: it asks no answer.
   */
  private async sendAttemptText(
    trx: Knex,
    text: QueuedText,
    order: Pick<Order, "id" | "customerName">,
  ): Promise<SendOutcome> {
    const event = await attemptEventOf(trx, text.shipmentEventId);
    if (!event) return { kind: "refused", error: "The courier's event of this text is gone" };
    const attempt = {
      id: order.id,
      customerName: order.customerName,
      storeName: this.deps.storeName,
      courier: event.courier,
      trackingNumber: event.trackingNumber,
      reason: event.reason ?? event.text,
      link: `${this.deps.publicUrl}/my-orders/${order.id}`,
    };
    return this.sendTemplated(text, {
      parameters: attemptTemplateParameters(text.language, attempt),
      body: attemptText(text.language, attempt),
      buttons: [],
    });
  }

  /**
   * The answer to a written reply that named no order while several wait: each waiting order's
   * number, amount and link, read when it is sent (an order answered meanwhile is left out).
   */
  private async sendChooseOrderText(trx: Knex, text: QueuedText): Promise<SendOutcome> {
    const waiting = await ordersAwaitingAnswer(trx, text.phone);
    if (waiting.length === 0) return { kind: "refused", error: "Not sent: no order of this phone waits any more" };
    const orders = waiting.map((order) => ({
      ...order,
      link: `${this.deps.publicUrl}/c/${confirmationToken(this.deps.secret, order.id)}`,
    }));
    const body = chooseOrderText(text.language, this.deps.storeName, orders);
    return this.sendTemplated(text, { parameters: [body], body, buttons: [] });
  }

  /** An order's confirmation, reminder or cancellation text: the Confirm and Cancel buttons carry the order's token. */
  private async sendConfirmationText(
    text: QueuedText & { kind: ConfirmationTextKind },
    order: Pick<Order, "id" | "customerName" | "totalPrice" | "confirmationStatus">,
  ): Promise<SendOutcome> {
    const token = confirmationToken(this.deps.secret, order.id);
    const textOrder: TextOrder = {
      id: order.id,
      customerName: order.customerName,
      totalPrice: Number(order.totalPrice),
      storeName: this.deps.storeName,
      link: `${this.deps.publicUrl}/c/${token}`,
    };
    const cause = order.confirmationStatus === "cancelled" ? "customer" : "not-confirmed";
    return this.sendTemplated(text, {
      parameters: templateParameters(text.language, textOrder),
      body: orderText(text.language, text.kind, textOrder, cause),
      buttons: text.kind === "cancellation" ? [] : [`CONFIRM:${token}`, `CANCEL:${token}`],
    });
  }

  /**
   * The one send of every kind of text, once its words are written: by the text's channel (refused
   * for good if that channel is no longer configured), with the WhatsApp template configured for its
   * kind and language (the kind and language themselves where none is). What the provider said is
   * recorded by send().
   */
  private async sendTemplated(
    text: QueuedText,
    written: Pick<OutgoingText, "parameters" | "body" | "buttons">,
  ): Promise<SendOutcome> {
    const channel = this.deps.channels[text.channel];
    if (!channel) return { kind: "refused", error: `${text.channel} is not configured` };
    const whatsapp = this.deps.whatsapp;
    return channel.send({
      phone: text.phone,
      template: {
        name: whatsapp?.templates[text.kind] ?? text.kind,
        language: whatsapp?.templateLanguages[text.language] ?? text.language,
      },
      ...written,
      reference: `${text.kind}-${text.orderId.slice(-8)}`,
    });
  }
}
