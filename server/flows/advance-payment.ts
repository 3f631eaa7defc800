import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import { prepareScreenshot, type PhotoUpload, type PreparedScreenshot } from "../modules/catalog/photo-processing";
import type { MailContext } from "../modules/mail/mail-layout";
import { bankAccountOf } from "../modules/payments/bank-transfer.shared";
import { queueOrderTexts, recordCancelReason } from "../modules/confirmation/order-confirmation";
import type { PaymentTextKind, TextChannel } from "../modules/confirmation/order-confirmation.shared";
import { setOrderStatus } from "../modules/orders/order-state";
import { orderStatusMail } from "../modules/orders/order-mails";
import {
  type PaymentOrder,
  lockPaymentOrder,
  paymentReferenceSchema,
  paymentVerdictSchema,
  recordPaymentReference,
  recordPaymentVerdict,
  unpaidTransferIds,
} from "../modules/payments/order-payment";
import { bankTransferSettings } from "../modules/confirmation/order-rules";
import { NOT_PAID_REASON, SCREENSHOT_FIELD } from "../modules/orders/order-values.shared";
import type { PublicOrder } from "../modules/orders/order.shape";
import {
  type ScreenshotSize,
  type ScreenshotViewer,
  readPaymentScreenshot,
  storePaymentScreenshot,
} from "../modules/payments/payment-screenshots";
import { paymentRejectedMail, paymentSubmittedMail, paymentVerifiedMail } from "../modules/payments/payment-mails";
import { systemClock, type Clock } from "../modules/shared/clock";
import { InvalidInputError, NotFoundError, TooLargeError } from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { giveStockBack } from "./cancellation";
import { readOrder } from "../modules/order-life/orders-reading";

/** Orders cancelled by one sweep at most; the next minute's takes the rest. */
const UNPAID_BATCH = 200;

/**
 * Paying in advance by bank transfer or Raast (docs/product.md, "Paying in advance"), after
 * checkout: the customer's transaction reference, the admin's verdict, and the sweep that cancels
 * transfers left unpaid, each with its mails and the customer's text, in one transaction. The ship guard is the
 * fulfilment flow's (fulfilment.ts).
 */
export class AdvancePaymentFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** The channel a new text tries first, the confirmation's (services.ts). */
      textChannel: TextChannel;
      clock?: Clock;
    },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /**
   * The customer's text about this step of the payment, to the order's phone in its language,
   * written in the caller's transaction as the confirmation's texts are (order-texts.ts sends it);
   * an order without a phone is told by mail only.
   */
  private async text(trx: Knex, order: PaymentOrder, kind: PaymentTextKind): Promise<void> {
    if (!order.phone) return;
    await queueOrderTexts(trx, [
      { orderId: order.id, channel: this.deps.textChannel, kind, language: order.language, phone: order.phone },
    ]);
  }

  /** The store's account an order is paid to (the order's page shows it); null while none is set. */
  async account() {
    return bankAccountOf(await bankTransferSettings(this.db));
  }

  /**
   * The customer's transaction reference for their own order (anyone else's: 404), with at most
   * one screenshot of the transfer: the payment becomes submitted and the store is mailed to
   * check it. A screenshot replaces the one sent before; a reference sent again without one keeps
   * it. An order paid on delivery, cancelled, or already verified: 409. A refused reference or
   * screenshot changes nothing, each said on its field.
   */
  async submitReference(
    userId: string,
    orderId: string,
    input: unknown,
    screenshots: PhotoUpload[] = [],
  ): Promise<PublicOrder> {
    const { reference, screenshot } = await this.readReference(input, screenshots);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await lockPaymentOrder(trx, orderId, { ownerId: userId });
      await recordPaymentReference(trx, order, { reference, now });
      if (screenshot) await storePaymentScreenshot(trx, order.id, screenshot);
      await this.deps.messages.queue(trx, [messageOf(paymentSubmittedMail(this.deps.mail, order, reference))]);
    });
    return readOrder(this.db, orderId);
  }

  /**
   * The reference and the screenshot checked together, so that a form with both wrong says both;
   * the screenshot goes through the photos' pipeline (its limits, formats and messages), said on
   * SCREENSHOT_FIELD. Too large is a 413, as a photo is.
   */
  private async readReference(
    input: unknown,
    screenshots: PhotoUpload[],
  ): Promise<{ reference: string; screenshot: PreparedScreenshot | null }> {
    const errors: InvalidInputError[] = [];
    let reference = "";
    try {
      reference = validateInput(paymentReferenceSchema, input).reference;
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      errors.push(error);
    }
    let screenshot: PreparedScreenshot | null = null;
    if (screenshots.length > 1) {
      errors.push(new InvalidInputError([{ field: SCREENSHOT_FIELD, message: "Attach one screenshot at most" }]));
    } else if (screenshots[0]) {
      try {
        screenshot = await prepareScreenshot(screenshots[0]);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        const onField = error.errors.map(({ message }) => ({ field: SCREENSHOT_FIELD, message }));
        errors.push(error instanceof TooLargeError ? new TooLargeError(onField) : new InvalidInputError(onField));
      }
    }
    if (errors.length === 0) return { reference, screenshot };
    const all = errors.flatMap((error) => error.errors);
    throw errors.some((error) => error instanceof TooLargeError) ? new TooLargeError(all) : new InvalidInputError(all);
  }

  /** The screenshot sent with an order's reference, for its owner and admins only (else 404). */
  async screenshot(viewer: ScreenshotViewer, orderId: string, size: ScreenshotSize): Promise<Buffer> {
    if (!isUuid(orderId)) throw new NotFoundError("Screenshot not found");
    return readPaymentScreenshot(this.db, viewer, orderId, size);
  }

  /**
   * An admin verifies the transfer (the order may then ship) or rejects its reference with a
   * reason (the customer may send another); the customer is told either way.
   */
  async review(orderId: string, input: unknown): Promise<PublicOrder> {
    const verdict = validateInput(paymentVerdictSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await lockPaymentOrder(trx, orderId);
      if (verdict.status === "verified") {
        await recordPaymentVerdict(trx, order, { status: "verified", now });
        await this.deps.messages.queue(trx, [
          messageOf(paymentVerifiedMail(this.deps.mail, order, order.totalPrice), order.phone),
        ]);
        await this.text(trx, order, "payment-verified");
      } else {
        const reason = verdict.reason!;
        await recordPaymentVerdict(trx, order, { status: "rejected", reason });
        await this.deps.messages.queue(trx, [
          messageOf(paymentRejectedMail(this.deps.mail, order, reason), order.phone),
        ]);
        await this.text(trx, order, "payment-rejected");
      }
    });
    return readOrder(this.db, orderId);
  }

  /**
   * The crontab's sweep: bank-transfer orders still unpaid (awaiting, or their reference rejected)
   * the settings' hours after they were placed are cancelled with the reason "Not paid", their
   * stock and discount code's use given back, and the customer mailed. A reference sent meanwhile
   * keeps the order for the admin to judge. Each order under its own lock: a payment that arrives
   * while the sweep runs wins.
   */
  async cancelUnpaid(): Promise<{ cancelled: number }> {
    const { unpaidTransferHours } = await bankTransferSettings(this.db);
    if (unpaidTransferHours === null) return { cancelled: 0 };
    const now = this.now();
    const before = new Date(now.getTime() - unpaidTransferHours * 3600_000);
    let cancelled = 0;
    for (const orderId of await unpaidTransferIds(this.db, before, UNPAID_BATCH)) {
      const done = await this.db.transaction(async (trx) => {
        const order = await lockPaymentOrder(trx, orderId);
        if (order.status !== "Pending" || !["awaiting", "rejected"].includes(order.paymentStatus)) return false;
        if (new Date(order.createdAt).getTime() > before.getTime()) return false;
        await giveStockBack(trx, this.deps.mail, order.id);
        await setOrderStatus(trx, order, { status: "Cancelled", now });
        await recordCancelReason(trx, order.id, NOT_PAID_REASON);
        await this.deps.messages.queue(trx, [
          messageOf(
            orderStatusMail(this.deps.mail, { ...order, courier: null, trackingNumber: null }, "Cancelled", {
              notPaid: true,
            }),
            order.phone,
          ),
        ]);
        await this.text(trx, order, "not-paid");
        return true;
      });
      if (done) cancelled += 1;
    }
    return { cancelled };
  }
}
